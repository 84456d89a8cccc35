// The dashboard's views, in navigation order. Adding a view: write views/<name>.ts exporting a View,
// import it here and list it.
import type { View } from "./view.ts";
import { actionsView } from "./views/actions.ts";
import { alertsView } from "./views/alerts.ts";
import { botSetupView } from "./views/bot-setup.ts";
import { chatView } from "./views/chat.ts";
import { commandsView } from "./views/commands.ts";
import { customCommandsView } from "./views/custom-commands.ts";
import { deckView } from "./views/deck.ts";
import { moderationView } from "./views/moderation.ts";
import { obsView } from "./views/obs.ts";
import { overlaysView } from "./views/overlays.ts";
import { overviewView } from "./views/overview.ts";
import { securityView } from "./views/security.ts";
import { timersQuotesView } from "./views/timers-quotes.ts";

export const VIEWS: readonly View[] = [
  overviewView,
  commandsView,
  customCommandsView,
  timersQuotesView,
  alertsView,
  chatView,
  moderationView,
  actionsView,
  deckView,
  obsView,
  botSetupView,
  overlaysView,
  securityView,
];
