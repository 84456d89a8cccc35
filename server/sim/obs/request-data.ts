/**
 * A request's `requestData`, checked the way obs-websocket 5.1.0's `Request.cpp` checks it, with its
 * status codes and comments word for word: a failed check throws a RequestFailure, which the dispatcher
 * answers as `requestStatus` (reference/obs.md §3–4).
 */

import { Status } from "./protocol.ts";
import type { ObsState, SimInput, SimScene, SimSceneItem } from "./state.ts";

export class RequestFailure extends Error {
  constructor(
    readonly code: number,
    readonly comment: string,
  ) {
    super(comment);
  }
}

const fail = (code: number, comment: string): never => {
  throw new RequestFailure(code, comment);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** C++'s std::to_string of a double: six decimals. */
const cppDouble = (value: number) => value.toFixed(6);

export class RequestData {
  readonly data: Record<string, unknown>;
  private readonly hasData: boolean;

  constructor(
    raw: unknown,
    readonly state: ObsState,
    /** "none" outside a batch; the batch's execution type inside one. */
    readonly executionType: "none" | "realtime" | "frame",
  ) {
    this.hasData = isObject(raw);
    this.data = isObject(raw) ? raw : {};
  }

  has(key: string): boolean {
    return this.data[key] !== undefined && this.data[key] !== null;
  }

  private basic(key: string): void {
    if (!this.hasData)
      fail(Status.MissingRequestData, "Your request data is missing or invalid (non-object)");
    if (!this.has(key)) fail(Status.MissingRequestField, `Your request is missing the \`${key}\` field.`);
  }

  optionalString(key: string, allowEmpty = false): string {
    const value = this.data[key];
    if (typeof value !== "string")
      return fail(Status.InvalidRequestFieldType, `The field value of \`${key}\` must be a string.`);
    if (value === "" && !allowEmpty)
      fail(Status.RequestFieldEmpty, `The field value of \`${key}\` must not be empty.`);
    return value;
  }

  string(key: string, allowEmpty = false): string {
    this.basic(key);
    return this.optionalString(key, allowEmpty);
  }

  optionalNumber(key: string, min = -Infinity, max = Infinity): number {
    const value = this.data[key];
    if (typeof value !== "number")
      return fail(Status.InvalidRequestFieldType, `The field value of \`${key}\` must be a number.`);
    if (value < min)
      fail(
        Status.RequestFieldOutOfRange,
        `The field value of \`${key}\` is below the minimum of \`${cppDouble(min)}\``,
      );
    if (value > max)
      fail(
        Status.RequestFieldOutOfRange,
        `The field value of \`${key}\` is above the maximum of \`${cppDouble(max)}\``,
      );
    return value;
  }

  number(key: string, min = -Infinity, max = Infinity): number {
    this.basic(key);
    return this.optionalNumber(key, min, max);
  }

  optionalBoolean(key: string): boolean {
    const value = this.data[key];
    if (typeof value !== "boolean")
      return fail(Status.InvalidRequestFieldType, `The field value of \`${key}\` must be boolean.`);
    return value;
  }

  boolean(key: string): boolean {
    this.basic(key);
    return this.optionalBoolean(key);
  }

  optionalObject(key: string, allowEmpty = false): Record<string, unknown> {
    const value = this.data[key];
    if (!isObject(value))
      return fail(Status.InvalidRequestFieldType, `The field value of \`${key}\` must be an object.`);
    if (Object.keys(value).length === 0 && !allowEmpty)
      fail(Status.RequestFieldEmpty, `The field value of \`${key}\` must not be empty.`);
    return value;
  }

  object(key: string, allowEmpty = false): Record<string, unknown> {
    this.basic(key);
    return this.optionalObject(key, allowEmpty);
  }

  /** Any source by name: a scene or an input. */
  private sourceName(key: string): string {
    const name = this.string(key);
    if (!this.state.hasSource(name))
      fail(Status.ResourceNotFound, `No source was found by the name of \`${name}\`.`);
    return name;
  }

  scene(key: string): SimScene {
    const name = this.sourceName(key);
    return this.state.scene(name) ?? fail(Status.InvalidResourceType, "The specified source is not a scene.");
  }

  input(key: string): SimInput {
    const name = this.sourceName(key);
    return (
      this.state.input(name) ?? fail(Status.InvalidResourceType, "The specified source is not an input.")
    );
  }

  sceneItem(sceneKey: string, idKey: string): { scene: SimScene; item: SimSceneItem } {
    const scene = this.scene(sceneKey);
    const id = this.number(idKey, 0);
    const item = scene.items.find((candidate) => candidate.id === id);
    if (!item) {
      fail(
        Status.ResourceNotFound,
        `No scene items were found in scene \`${scene.name}\` with the ID \`${Math.trunc(id)}\`.`,
      );
    }
    return { scene, item: item! };
  }
}
