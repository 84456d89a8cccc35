import type { OBSRequestTypes, OBSResponseTypes } from "obs-websocket-js/json";
import type { ObsSeen } from "../../db/obs.ts";
import type { CoreContext } from "../core/context.ts";
import { type ObsConnection, ObsNotConnected, type ObsRequestType, type ObsTarget } from "./connection.ts";
import type { ObsRelay } from "./relay.ts";
import type { ObsStep, ObsStepDone, ObsStepRunner } from "./steps.ts";

/*
 * What the OBS connection reads, declared here rather than taken from the runtime's Context
 * (server/runtime.ts builds that one from obs/, so naming it would tie the two together).
 */

/** The running OBS connections, where this instance holds them (obs/live.ts). */
export interface ObsRuntime {
  /** The account's OBS settings changed: read them again and connect, reconnect or let go. */
  changed(accountId: number): void;
  /** The account's connection held here, if any. */
  connection(accountId: number): ObsConnection | null;
  /** Carries out an action's OBS step on the account's OBS, however it is reached. */
  step(accountId: number, step: ObsStep): Promise<ObsStepDone>;
}

const NOT_HELD = "OBS is not connected: the connection is off.";

/** The context's OBS: what the panel (and later actions) tell and ask the connections, wherever they run. */
export class ObsHandle implements ObsStepRunner {
  #live: ObsRuntime | null = null;

  /** The overlay pages that reach OBS for accounts `via: overlay` (every instance keeps one). */
  constructor(readonly relay: ObsRelay) {}

  useLive(live: ObsRuntime): void {
    this.#live = live;
  }

  release(live: ObsRuntime): void {
    if (this.#live === live) this.#live = null;
  }

  /** Another instance learns through the change feed (its externalChanges); this one at once, open overlay pages too. */
  changed(accountId: number): void {
    this.#live?.changed(accountId);
    this.relay.settingsChanged(accountId);
  }

  /**
   * What this instance's connection sees now; null where it holds none or, given `target`, holds one
   * to settings just replaced (the store then says: connecting to the new ones).
   */
  seen(accountId: number, target?: ObsTarget): ObsSeen | null {
    const connection = this.#live?.connection(accountId);
    if (!connection) return null;
    const held = connection.target;
    if (target && (held.url !== target.url || held.password !== target.password)) return null;
    return connection.status();
  }

  /** One request to the account's OBS; ObsNotConnected when this instance holds no live connection. */
  call<T extends ObsRequestType>(
    accountId: number,
    type: T,
    data?: OBSRequestTypes[T],
  ): Promise<OBSResponseTypes[T]> {
    const connection = this.#live?.connection(accountId);
    if (!connection) return Promise.reject(new ObsNotConnected(NOT_HELD));
    return connection.call(type, data);
  }

  /** An action's OBS step (obs/steps.ts); ObsNotConnected where this instance holds no OBS for it. */
  step(accountId: number, step: ObsStep): Promise<ObsStepDone> {
    const live = this.#live;
    if (!live) return Promise.reject(new ObsNotConnected(NOT_HELD));
    return live.step(accountId, step);
  }
}

/** What the OBS connections and the dashboard's OBS routes read. */
export type ObsContext = Readonly<
  Pick<CoreContext, "db" | "secrets" | "clock" | "log" | "externalChanges">
> & {
  readonly obs: ObsHandle;
};
