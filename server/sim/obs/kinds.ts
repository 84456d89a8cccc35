/**
 * The input kinds the simulated OBS has: those of Debian's OBS 29.0.2 that cuebot's actions touch
 * (FreeType text, image, media, colour), with their unversioned names and default settings as real OBS
 * reports them in InputCreated (reference/obs.md §4 "Input kinds"), and the transform a new scene item of
 * each gets.
 */
export const INPUT_KINDS = {
  text_ft2_source_v2: {
    unversioned: "text_ft2_source",
    defaults: {
      antialiasing: true,
      color1: 4294967295,
      color2: 4294967295,
      drop_shadow: false,
      font: { face: "Sans Serif", flags: 0, size: 256, style: "" },
      log_lines: 6,
      outline: false,
      word_wrap: false,
    },
  },
  image_source: { unversioned: "image_source", defaults: { linear_alpha: false, unload: false } },
  ffmpeg_source: {
    unversioned: "ffmpeg_source",
    defaults: {
      buffering_mb: 2,
      clear_on_media_end: true,
      is_local_file: true,
      linear_alpha: false,
      looping: false,
      reconnect_delay_sec: 10,
      restart_on_activate: true,
      speed_percent: 100,
    },
  },
  color_source_v3: {
    unversioned: "color_source",
    defaults: { color: 4291940817, height: 1080, width: 1920 },
  },
} as const;

export type InputKind = keyof typeof INPUT_KINDS;

export const isInputKind = (kind: string): kind is InputKind => Object.hasOwn(INPUT_KINDS, kind);

/**
 * GetSceneItemList's `sceneItemTransform` for a new item: at the top left, unscaled, as big as its
 * source (a colour source's default 1920×1080; text, image and media 0×0 until drawn: the simulator
 * renders no fonts or files).
 */
export function sceneItemTransform(kind: InputKind | null): Record<string, unknown> {
  const [width, height] = kind === "color_source_v3" ? [1920, 1080] : [0, 0];
  return {
    alignment: 5,
    boundsAlignment: 0,
    boundsHeight: 0,
    boundsType: "OBS_BOUNDS_NONE",
    boundsWidth: 0,
    cropBottom: 0,
    cropLeft: 0,
    cropRight: 0,
    cropTop: 0,
    height,
    positionX: 0,
    positionY: 0,
    rotation: 0,
    scaleX: 1,
    scaleY: 1,
    sourceHeight: height,
    sourceWidth: width,
    width,
  };
}
