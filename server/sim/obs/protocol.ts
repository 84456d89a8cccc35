/**
 * obs-websocket 5's numbers and fixed words as obs-websocket 5.1.0 (OBS Studio 29.0.2) has them:
 * op codes, close codes with OBS's own reasons, request status codes, event subscription bits, and the
 * authentication hash (reference/obs.md §2–3; obs-websocket 5.1.0 `WebSocketServer_Protocol.cpp`).
 */
import { createHash } from "node:crypto";

export const OBS_STUDIO_VERSION = "29.0.2";
export const OBS_WEBSOCKET_VERSION = "5.1.0";
export const RPC_VERSION = 1;
export const JSON_SUBPROTOCOL = "obswebsocket.json";
export const MSGPACK_SUBPROTOCOL = "obswebsocket.msgpack";

export const Op = {
  Hello: 0,
  Identify: 1,
  Identified: 2,
  Reidentify: 3,
  Event: 5,
  Request: 6,
  RequestResponse: 7,
  RequestBatch: 8,
  RequestBatchResponse: 9,
} as const;

/** A close frame as OBS sends it: the code and its exact reason. */
export interface Close {
  code: number;
  reason: string;
}

const close = (code: number, reason: string): Close => ({ code, reason });

export const CLOSES = {
  jsonGotBinary: close(4002, "Your session encoding is set to Json, but a binary message was received."),
  notObject: close(4002, "You sent a non-object payload."),
  missingOp: close(4006, "Your request is missing an `op`."),
  opNotNumber: close(4006, "Your `op` is not a number."),
  missingData: close(4003, "Your payload is missing data (`d`)."),
  dataNotObject: close(4004, "Your payload's data (`d`) is not an object."),
  notIdentified: close(4007, "You attempted to send a non-Identify message while not identified."),
  alreadyIdentified: close(4008, "You are already Identified with the obs-websocket server."),
  missingAuth: close(
    4009,
    "Your payload's data is missing an `authentication` string, however authentication is required.",
  ),
  authFailed: close(4009, "Authentication failed."),
  missingRpcVersion: close(4003, "Your payload's data is missing an `rpcVersion`."),
  rpcVersionNotNumber: close(4004, "Your `rpcVersion` is not an unsigned number."),
  unsupportedRpcVersion: close(4010, "Your requested RPC version is not supported by this server."),
  preV5: close(
    4010,
    "You appear to be attempting to connect with the pre-5.0.0 plugin protocol. Check to make sure your client is updated.",
  ),
  subscriptionsNotNumber: close(4004, "Your `eventSubscriptions` is not an unsigned number."),
  missingRequestId: close(4003, "Your payload data is missing a `requestId`."),
  missingRequestType: close(4003, "Your payload's data is missing an `requestType`."),
  requestTypeNotString: close(4004, "Your `requestType` is not a string."),
  executionTypeNotNumber: close(4004, "Your `executionType` is not a number."),
  executionTypeInvalid: close(4005, "Your `executionType` has an invalid value."),
  haltNotBoolean: close(4004, "Your `haltOnFailure` is not a boolean."),
  missingRequests: close(4003, "Your payload data is missing a `requests`."),
  requestsNotArray: close(4004, "Your `requests` is not an array."),
  serverStopping: close(1001, "Server stopping."),
} satisfies Record<string, Close>;

export const unknownOpCode = (op: number): Close => close(4006, `Unknown OpCode: ${op}`);

/** RequestStatus codes used here (reference/obs.md §3). */
export const Status = {
  Success: 100,
  MissingRequestType: 203,
  UnknownRequestType: 204,
  UnsupportedRequestBatchExecutionType: 206,
  MissingRequestField: 300,
  MissingRequestData: 301,
  InvalidRequestField: 400,
  InvalidRequestFieldType: 401,
  RequestFieldOutOfRange: 402,
  RequestFieldEmpty: 403,
  ResourceNotFound: 600,
  ResourceAlreadyExists: 601,
  InvalidResourceType: 602,
  InvalidInputKind: 605,
} as const;

/** EventSubscription bits (reference/obs.md §2.5); All as obs-websocket 5.1.0 defines it. */
export const Subscription = {
  General: 1 << 0,
  Config: 1 << 1,
  Scenes: 1 << 2,
  Inputs: 1 << 3,
  Transitions: 1 << 4,
  Filters: 1 << 5,
  Outputs: 1 << 6,
  SceneItems: 1 << 7,
  MediaInputs: 1 << 8,
  Vendors: 1 << 9,
  Ui: 1 << 10,
  All: 2047,
} as const;

const sha256Base64 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

/** The secret OBS keeps for a password and salt: base64(sha256(password + salt)). */
export const authSecret = (password: string, salt: string): string => sha256Base64(password + salt);

/** What a client must send for a secret and challenge: base64(sha256(secret + challenge)). */
export const authResponse = (secret: string, challenge: string): string => sha256Base64(secret + challenge);
