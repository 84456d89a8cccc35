/**
 * One incoming frame, handled as obs-websocket 5.1.0's `WebSocketServer::onMessage` and
 * `ProcessMessage` do: the checks in the same order, a close with OBS's code and reason for a frame it
 * would close on, otherwise the reply (Identified, RequestResponse, RequestBatchResponse) or none.
 */
import { authResponse, CLOSES, type Close, Op, RPC_VERSION, unknownOpCode } from "./protocol.ts";
import { processRequest, type RequestResult } from "./requests.ts";
import type { ObsState } from "./state.ts";

export interface Session {
  identified: boolean;
  subscriptions: number;
  challenge: string;
  /** base64(sha256(password + salt)) when authentication is required; null when it is off. */
  secret: string | null;
}

export type Outcome = { close: Close } | { reply: { op: number; d: Record<string, unknown> } | null };

type Payload = Record<string, unknown>;

const isObject = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isUnsigned = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;

export async function processMessage(state: ObsState, session: Session, text: string): Promise<Outcome> {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return {
      close: { code: 4002, reason: "Unable to decode Json: [json.exception.parse_error.101] parse error" },
    };
  }
  if (!isObject(message)) return { close: CLOSES.notObject };
  if (!session.identified && "request-type" in message) return { close: CLOSES.preV5 };
  if (!("op" in message)) return { close: CLOSES.missingOp };
  if (typeof message.op !== "number") return { close: CLOSES.opNotNumber };
  const d = message.d;
  if (!isObject(d))
    return { close: d === undefined || d === null ? CLOSES.missingData : CLOSES.dataNotObject };
  if (!session.identified && message.op !== Op.Identify) return { close: CLOSES.notIdentified };
  switch (message.op) {
    case Op.Identify:
      return identify(session, d);
    case Op.Reidentify:
      return setSubscriptions(session, d) ?? identified();
    case Op.Request:
      return await request(state, d);
    case Op.RequestBatch:
      return await batch(state, d);
    default:
      return { close: unknownOpCode(message.op) };
  }
}

const identified = (): Outcome => ({
  reply: { d: { negotiatedRpcVersion: RPC_VERSION }, op: Op.Identified },
});

function setSubscriptions(session: Session, d: Payload): Outcome | null {
  if (!("eventSubscriptions" in d)) return null;
  if (!isUnsigned(d.eventSubscriptions)) return { close: CLOSES.subscriptionsNotNumber };
  session.subscriptions = d.eventSubscriptions as number;
  return null;
}

function identify(session: Session, d: Payload): Outcome {
  if (session.identified) return { close: CLOSES.alreadyIdentified };
  if (session.secret !== null) {
    if (!("authentication" in d)) return { close: CLOSES.missingAuth };
    if (d.authentication !== authResponse(session.secret, session.challenge))
      return { close: CLOSES.authFailed };
  }
  if (!("rpcVersion" in d)) return { close: CLOSES.missingRpcVersion };
  if (!isUnsigned(d.rpcVersion)) return { close: CLOSES.rpcVersionNotNumber };
  if (d.rpcVersion !== RPC_VERSION) return { close: CLOSES.unsupportedRpcVersion };
  const failed = setSubscriptions(session, d);
  if (failed) return failed;
  session.identified = true;
  return identified();
}

/** A RequestResponse-like object: requestId only when the request had one (batch items may not). */
function resultFrame(requestType: unknown, requestId: unknown, result: RequestResult): Payload {
  const requestStatus: Payload = { code: result.code, result: result.code === 100 };
  if (result.comment !== "") requestStatus.comment = result.comment;
  const frame: Payload = { requestStatus, requestType };
  if (requestId !== undefined && requestId !== null) frame.requestId = requestId;
  if (result.responseData) frame.responseData = result.responseData;
  return frame;
}

async function request(state: ObsState, d: Payload): Promise<Outcome> {
  if (!("requestId" in d)) return { close: CLOSES.missingRequestId };
  if (!("requestType" in d)) return { close: CLOSES.missingRequestType };
  if (typeof d.requestType !== "string") return { close: CLOSES.requestTypeNotString };
  const result = await processRequest(state, d.requestType, d.requestData, "none");
  return { reply: { d: resultFrame(d.requestType, d.requestId, result), op: Op.RequestResponse } };
}

const EXECUTION_TYPES = { 0: "realtime", 1: "frame", 2: "realtime" } as const;

/** Checks a batch's fields in OBS's order; its execution type, or the close it earns. */
function batchOptions(d: Payload): { close: Close } | { executionType: "realtime" | "frame"; halt: boolean } {
  if (!("requestId" in d)) return { close: CLOSES.missingRequestId };
  let executionType: "realtime" | "frame" = "realtime";
  if (d.executionType !== undefined && d.executionType !== null) {
    if (!isUnsigned(d.executionType)) return { close: CLOSES.executionTypeNotNumber };
    const chosen = EXECUTION_TYPES[d.executionType as 0 | 1 | 2];
    if (!chosen) return { close: CLOSES.executionTypeInvalid };
    executionType = chosen;
  }
  let halt = false;
  if (d.haltOnFailure !== undefined && d.haltOnFailure !== null) {
    if (typeof d.haltOnFailure !== "boolean") return { close: CLOSES.haltNotBoolean };
    halt = d.haltOnFailure;
  }
  if (!("requests" in d)) return { close: CLOSES.missingRequests };
  if (!Array.isArray(d.requests)) return { close: CLOSES.requestsNotArray };
  return { executionType, halt };
}

/** Serial execution (Parallel runs serially here); with haltOnFailure, only what ran is answered. */
async function batch(state: ObsState, d: Payload): Promise<Outcome> {
  const options = batchOptions(d);
  if ("close" in options) return options;
  const results: Payload[] = [];
  for (const item of d.requests as unknown[]) {
    const entry = isObject(item) ? item : {};
    const requestType = typeof entry.requestType === "string" ? entry.requestType : "";
    const result = await processRequest(state, requestType, entry.requestData, options.executionType);
    results.push(resultFrame(requestType, entry.requestId, result));
    if (options.halt && result.code !== 100) break;
  }
  return { reply: { d: { requestId: d.requestId, results }, op: Op.RequestBatchResponse } };
}
