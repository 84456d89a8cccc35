// The shapes the panel API answers (CONTRACT.md §6), as the dashboard reads them, in cuebot's own words
// (roles, states, alert types, command names: the vocabulary the server's answers are typed with).
import type { ActionInput, ActionStep, ActionTrigger, StepOutcome } from "../../../actions/model.ts";
import type {
  AlertType,
  CommandName,
  CommandRefusal,
  ConnectionState,
  FilterSettings,
  ModerationFilter,
  ModerationLogAction,
  ObsState,
  ObsVia,
  Role,
  ShieldSettings,
} from "../../../vocabulary.ts";

export interface Session {
  valid: boolean;
  tokenExpiresAt: string;
  user: { id: string; login: string; display_name: string; profile_image_url: string; timezone: string };
}

export interface ScopeFeatures<T> {
  platform_shoutout: T;
  moderator_list: T;
}

export interface Profile {
  id: string;
  login: string;
  display_name: string;
  profile_image_url: string;
  timezone: string;
  role: Role;
  /** Whether other streamers use this install too: only then is the role worth showing. */
  several_accounts: boolean;
  created_at: string;
  limits: { bot_per_minute: number; heavy_per_minute: number; panel_per_minute: number };
  /** What a grant beyond the ten switches on: Twitch's own shoutout, listing the channel's moderators. */
  features: ScopeFeatures<boolean>;
  /** Where the streamer allows each of them: null once granted. */
  consent_urls: ScopeFeatures<string | null>;
  public_url: string;
  demo: boolean;
}

export interface Live {
  live: boolean;
  title?: string;
  game_name?: string;
  viewer_count?: number;
  uptime_seconds: number | null;
}

export interface Analytics {
  days: number;
  total_calls: number;
  ok_calls: number;
  distinct_callers: number;
  by_command: { command: string; calls: number; ok: number; avg_latency_ms: number }[];
  by_day: { day: string; calls: number }[];
  by_day_command: { day: string; command: string; calls: number }[];
  top_callers: { caller: string; calls: number }[];
}

/** A command call, or (kind "alert") a follow, sub, gift, cheer, raid or redemption from Twitch. */
export type ActivityItem =
  | {
      kind: "command";
      id: number;
      at: string;
      command: string;
      caller: string;
      outcome: string;
      latency_ms: number;
      /** Run from the dashboard: not a viewer's call. */
      test: boolean;
      /** Why chat got no reply (a limit refused it). */
      refused: CommandRefusal | null;
    }
  | {
      kind: "alert";
      id: number;
      at: string;
      type: AlertType;
      user: string;
      amount: number | null;
      text: string;
    };

export interface ActivityPage {
  items: ActivityItem[];
  cursor: string | null;
}

export interface CommandInfo {
  command: CommandName;
  enabled: boolean;
  cooldownSeconds: number;
  /** Extra chat triggers (native chat), without "!". */
  aliases: string[];
  options: Record<string, unknown>;
  description: string;
  defaults: Record<string, unknown>;
}

export interface OverlayInfo {
  state: Record<string, unknown>;
  version?: number;
  overlay_url: string | null;
  connections: number;
}

export interface ChatInfo {
  enabled: boolean;
  state: ConnectionState;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
  scope: string;
  /** The linked bot account that reads and speaks, or null: the streamer's own account speaks. */
  bot: {
    login: string;
    displayName: string;
    moderator: boolean | null;
    vip: boolean | null;
    note: string;
    needsReauth: boolean;
  } | null;
  botLinkUrl: string;
}

export interface DemoChatInfo {
  viewers: string[];
  lines: {
    id: string;
    at: string;
    user: string;
    text: string;
    fromCuebot: boolean;
    replyTo: string | null;
    /** A moderator removed it; still listed. */
    deleted: boolean;
    /** The command it typed got no reply: why (a limit refused it). */
    noReply: CommandRefusal | null;
  }[];
}

/** The raid shield as `GET /api/dashboard/moderation` answers it: its settings, and whether it is on now. */
export interface ShieldInfo extends ShieldSettings {
  active: boolean;
  /** While active: when it lifts unless triggered again. */
  until: string | null;
}

/** Chat moderation (`GET /api/dashboard/moderation`), its state as native chat's. */
export interface ModerationInfo {
  enabled: boolean;
  state: ConnectionState;
  since: string | null;
  reason: string | null;
  /** Twitch's consent page for the scopes moderation needs, while one is missing. */
  consentUrl: string | null;
  filters: FilterSettings;
  shield: ShieldInfo;
}

/** One line of the moderation log, newest first. */
export interface ModerationLogItem {
  id: number;
  at: string;
  /** Who was acted on; none for the shield's own entries. */
  user: { id: string; login: string; name: string } | null;
  filter: ModerationFilter | null;
  action: ModerationLogAction;
  /** A timeout's length. */
  seconds: number | null;
  /** The caught message (kept 7 days). */
  text: string | null;
  undone: boolean;
}

export interface ModerationLogPage {
  items: ModerationLogItem[];
  cursor: string | null;
}

/** What `POST /api/dashboard/moderation/test` says would happen to a line. */
export interface ModerationTestResult {
  caught: boolean;
  filter: ModerationFilter | null;
  action: ModerationLogAction | null;
}

/** `GET /api/dashboard/obs`: the OBS connection's settings (never the password) and what it sees. */
export interface ObsInfo {
  enabled: boolean;
  url: string;
  via: ObsVia;
  state: ObsState;
  since: string | null;
  reason: string | null;
  obsVersion: string | null;
  scenes: string[];
  sources: string[];
}

/** `GET /api/dashboard/demo/obs` (demo mode): the simulated OBS's program scene, its sources top first. */
export interface DemoProgram {
  scene: string;
  sources: { name: string; visible: boolean; text: string | null }[];
}

export type { ActionInput, ActionStep, ActionTrigger, StepOutcome };

export type StepType = ActionStep["type"];
export type TriggerType = ActionTrigger["type"];

export interface Action extends ActionInput {
  id: number;
  lastRun: { at: string; ok: boolean; error: string | null } | null;
}

export interface ActionList {
  items: Action[];
  limit: number;
}

/** `POST /api/dashboard/actions/:id/run`: the steps that ran, a failed one last. */
export interface RunResult {
  ok: boolean;
  steps: StepOutcome[];
}

/** A finished run in `GET /api/dashboard/actions/:id/runs`, newest first. */
export interface ActionRun {
  actionId: number;
  at: string;
  ok: boolean;
  cause: TriggerType;
  user: string;
  steps: StepOutcome[];
}
