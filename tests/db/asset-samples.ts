/**
 * The first bytes of each file type an alert upload accepts (what db/alert-assets.ts reads), padded
 * with arbitrary bytes after them, and files that only look like one by their name.
 */
const padded = (head: number[] | string, total = 64): Uint8Array => {
  const start = typeof head === "string" ? [...head].map((c) => c.charCodeAt(0)) : head;
  const bytes = new Uint8Array(Math.max(total, start.length));
  bytes.set(start);
  for (let i = start.length; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
  return bytes;
};

const riff = (form: string) =>
  padded(
    [..."RIFF"]
      .map((c) => c.charCodeAt(0))
      .concat(
        [0x24, 0, 0, 0],
        [...form].map((c) => c.charCodeAt(0)),
      ),
  );

export const SAMPLES = {
  png: padded([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpeg: padded([0xff, 0xd8, 0xff, 0xe0]),
  gif87: padded("GIF87a"),
  gif89: padded("GIF89a"),
  webp: riff("WEBP"),
  mp3Id3: padded("ID3\u0004\u0000"),
  /** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz: an MP3 without a tag. */
  mp3Frame: padded([0xff, 0xfb, 0x90, 0x64]),
  ogg: padded("OggS\u0000\u0002"),
  wav: riff("WAVE"),
} as const;

export const NOT_ACCEPTED = {
  svg: padded('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  html: padded("<!doctype html><p>hi"),
  /** A RIFF container that is neither WebP nor WAV (an AVI). */
  avi: riff("AVI "),
  /** 0xFF then bytes that are no MPEG frame header (reserved version, bad bitrate). */
  fakeFrame: padded([0xff, 0xe9, 0xf0, 0x00]),
  /** Shorter than any signature. */
  tiny: new Uint8Array([0x89, 0x50]),
} as const;
