// The channel's uploaded images and sounds, shared by every type's form: an upload in one form is
// offered at once in the others. An upload is the file itself as the request's body; the server reads
// its type from the bytes and answers a refusal naming the file.

import type { AlertAssetKind } from "../../../../vocabulary.ts";
import { sendFile } from "../../lib/api.ts";
import { h } from "../../lib/dom.ts";
import type { AlertAsset } from "./types.ts";
import { ALERT_LIMITS } from "./types.ts";

export const KIND_TEXT: Record<AlertAssetKind, { one: string; formats: string; accept: string }> = {
  image: {
    one: "image",
    formats: "PNG, JPEG, GIF or WebP",
    accept: "image/png,image/jpeg,image/gif,image/webp",
  },
  sound: {
    one: "sound",
    formats: "MP3, Ogg or WAV",
    accept: "audio/mpeg,audio/ogg,audio/wav,.mp3,.ogg,.wav",
  },
};

/** "PNG image #3, 12 KB". */
export function assetLabel(asset: AlertAsset): string {
  const format = asset.contentType.split("/")[1]?.toUpperCase() ?? asset.contentType;
  const kb = Math.max(1, Math.round(asset.size / 1024));
  return `${format} ${asset.kind} #${asset.id}, ${kb} KB`;
}

/** Where the dashboard reads an upload back (a thumbnail, a sound to listen to). */
export function assetUrl(id: number): string {
  return `/api/dashboard/alerts/assets/${id}`;
}

/** A small look at an upload: its image, or a player for its sound. */
export function assetPreview(asset: AlertAsset, label: string): HTMLElement {
  if (asset.kind === "image")
    return h("img", { class: "alerts-thumb", src: assetUrl(asset.id), alt: label, loading: "lazy" });
  return h("audio", {
    class: "alerts-audio",
    src: assetUrl(asset.id),
    controls: true,
    preload: "none",
    "aria-label": label,
  });
}

/** Why a chosen file is refused before sending it, or null. */
export function fileProblem(file: File): string | null {
  if (file.size === 0) return "This file is empty.";
  if (file.size > ALERT_LIMITS.assetBytes)
    return `This file is ${(file.size / 1024 / 1024).toFixed(1)} MiB; at most 1 MiB.`;
  return null;
}

export class AssetStore {
  private readonly listeners = new Set<() => void>();

  constructor(
    private items: AlertAsset[],
    /** How many files a channel may keep. */
    readonly limit: number,
  ) {}

  list(kind: AlertAssetKind): AlertAsset[] {
    return this.items.filter((a) => a.kind === kind);
  }

  all(): AlertAsset[] {
    return [...this.items];
  }

  /** Calls `fn` after every change, while `owner` is in the page. */
  onChange(owner: HTMLElement, fn: () => void): void {
    const listener = () => {
      if (owner.isConnected) fn();
      else this.listeners.delete(listener);
    };
    this.listeners.add(listener);
  }

  async upload(kind: AlertAssetKind, file: File): Promise<AlertAsset> {
    const added = await sendFile<AlertAsset>(`/api/dashboard/alerts/assets?kind=${kind}`, file);
    this.items = [...this.items, added];
    this.changed();
    return added;
  }

  /** After a delete on the server: the file is no longer offered anywhere. */
  removed(id: number): void {
    this.items = this.items.filter((a) => a.id !== id);
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
