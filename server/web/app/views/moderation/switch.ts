// The moderation switch (lib/switch-card.ts): on/off, the state (as native chat's, with its reason and
// since when) and, while a scope is missing, the button to Twitch's consent page. Turning it on turns
// native chat on too where it is off (the server does).
import type { Sequence } from "../../lib/poll.ts";
import { consentLine, switchCard as featureSwitch, type SwitchCard } from "../../lib/switch-card.ts";
import type { ModerationInfo } from "../../lib/types.ts";

export function switchCard(
  info: ModerationInfo,
  sequence: Sequence,
  drawn: (info: ModerationInfo) => void,
): SwitchCard<ModerationInfo> {
  return featureSwitch(info, {
    prefix: "moderation",
    path: "/api/dashboard/moderation",
    heading: "Protect my chat",
    intro:
      "cuebot removes spam as it arrives: a first offence is deleted with a warning, another within the hour is a timeout. You, your moderators and cuebot's own lines are never caught. Turning this on turns native chat on too.",
    label: "On: cuebot moderates my chat",
    what: "Chat moderation",
    more: (next) => [
      next.consentUrl
        ? consentLine(
            next.consentUrl,
            "moderation-consent",
            "Allow cuebot to moderate",
            "Twitch asks you to confirm; cuebot then also holds moderator:manage:chat_messages (to delete messages) and moderator:manage:chat_settings (followers-only chat for the raid shield). Nothing else changes.",
          )
        : null,
    ],
    moreKey: (next) => next.consentUrl ?? "",
    sequence,
    drawn,
  });
}
