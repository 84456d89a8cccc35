// The overlay's alerts: a queue, one at a time, each alert id shown once (a reload never replays one).
// An alert arrives as the vocabulary's `Alert` (the alert stream's data); what it names is still
// checked, since a page left open in OBS may meet a newer or older cuebot.
import type { Alert } from "../../vocabulary.ts";
import { labelOf } from "./labels.ts";

/** How long the way out takes (the CSS transition), and the pause before the next alert. */
const LEAVE_MS = 450;
const GAP_MS = 400;
/** The queue's longest length (a flood drops its oldest), and the age past which a queued alert is dropped. */
const QUEUE_MAX = 50;
const STALE_MS = 120_000;
/** How many ids the page remembers having heard (the oldest forgotten first). */
const SEEN_MAX = 1000;

/** The page's parts an alert is drawn into. */
export interface AlertStage {
  stage: HTMLElement;
  image: HTMLImageElement;
  label: HTMLElement;
  text: HTMLElement;
  message: HTMLElement;
}

export interface AlertOptions {
  /** Where the page's assets are fetched (the overlay token's own URL for an asset id). */
  assetUrl: (id: number) => string;
  /** Plays no sound (the dashboard's live preview). */
  muted: boolean;
  /** Where the highest id shown is kept, per overlay token. */
  storageKey: string;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The highest id kept in the page's storage, or 0. */
function readLastShown(key: string): number {
  try {
    const stored = Number(localStorage.getItem(key));
    return Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
  } catch {
    return 0; // storage refused (a sandboxed frame): this page load still shows each alert once
  }
}

function writeLastShown(key: string, id: number): void {
  try {
    localStorage.setItem(key, String(id));
  } catch {
    // as above
  }
}

/** An alert as read from the stream, or null when it is not one (no valid id). */
function parseAlert(data: string): Alert | null {
  try {
    const alert: unknown = JSON.parse(data);
    return typeof alert === "object" && alert !== null && isId((alert as { id?: unknown }).id)
      ? (alert as Alert)
      : null;
  } catch {
    return null;
  }
}

// Plain `private` members, not `#`: OBS's browser source may be an older Chromium than the dashboard's.
export class AlertPlayer {
  private readonly parts: AlertStage;
  private readonly options: AlertOptions;
  private readonly queue: Alert[] = [];
  /**
   * Ids heard while the page is open (the stream may bring one again after a reconnect). Ids are not
   * assumed to arrive in order: an alert with a lower id than one already heard is still shown.
   */
  private readonly seen = new Set<number>();
  /** The highest id shown before this page loaded (a reload never replays it or anything older). */
  private readonly shownBeforeLoad: number;
  private lastShown: number;
  private showing = false;
  /** The highest id heard: a reconnect asks for what came after it. */
  lastHeard: number;

  constructor(parts: AlertStage, options: AlertOptions) {
    this.parts = parts;
    this.options = options;
    this.shownBeforeLoad = readLastShown(options.storageKey);
    this.lastShown = this.shownBeforeLoad;
    this.lastHeard = this.shownBeforeLoad;
    parts.image.addEventListener("error", () => {
      parts.image.hidden = true;
    });
  }

  /** An alert from the stream: queued unless it was heard or shown before. */
  heard(data: string): void {
    const alert = parseAlert(data);
    if (!alert || alert.id <= this.shownBeforeLoad || this.seen.has(alert.id)) return;
    this.seen.add(alert.id);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value as number);
    this.lastHeard = Math.max(this.lastHeard, alert.id);
    this.queue.push(alert);
    this.queue.sort((a, b) => a.id - b.id);
    if (this.queue.length > QUEUE_MAX) this.queue.splice(0, this.queue.length - QUEUE_MAX);
    this.showNext();
  }

  private rememberShown(id: number): void {
    if (id <= this.lastShown) return;
    this.lastShown = id;
    writeLastShown(this.options.storageKey, id);
  }

  /** The next alert to show, leaving out those that waited too long (the moment has passed). */
  private nextFresh(): Alert | null {
    for (let alert = this.queue.shift(); alert; alert = this.queue.shift()) {
      if (!(Number(alert.at) < Date.now() - STALE_MS)) return alert;
    }
    return null;
  }

  private showNext(): void {
    if (this.showing) return;
    const alert = this.nextFresh();
    if (!alert) return;
    const { stage } = this.parts;
    this.showing = true;
    this.rememberShown(alert.id);
    this.fill(alert);
    stage.hidden = false;
    // The next frame starts the transition in from the hidden state.
    requestAnimationFrame(() => requestAnimationFrame(() => stage.classList.add("in")));
    this.playSound(alert);
    const duration = Math.min(30_000, Math.max(1000, Number(alert.durationMs) || 6000));
    setTimeout(() => {
      stage.classList.remove("in");
      setTimeout(() => {
        stage.hidden = true;
        this.showing = false;
        setTimeout(() => this.showNext(), GAP_MS);
      }, LEAVE_MS);
    }, duration);
  }

  private fill(alert: Alert): void {
    const { stage, image, label, text, message } = this.parts;
    const type = labelOf(alert.type);
    stage.className = `alert-${type.known ? alert.type : "other"}`;
    label.textContent = alert.test ? `${type.label} · test` : type.label;
    text.textContent = String(alert.text ?? "");
    const said = typeof alert.fields?.message === "string" ? alert.fields.message : "";
    message.textContent = said;
    message.hidden = said === "";
    image.hidden = !isId(alert.imageId);
    if (isId(alert.imageId)) image.src = this.options.assetUrl(alert.imageId);
    else image.removeAttribute("src");
  }

  private playSound(alert: Alert): void {
    if (this.options.muted || !isId(alert.soundId)) return;
    const audio = new Audio(this.options.assetUrl(alert.soundId));
    audio.volume = Math.min(1, Math.max(0, Number(alert.volume) / 100 || 0));
    // A browser that needs a click first refuses (OBS does not): the alert shows without its sound.
    audio.play().catch(() => {});
  }
}
