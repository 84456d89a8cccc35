/**
 * Stream alerts (issue 25): what cuebot keeps of an event and shows on the overlay. The same shape
 * travels on the overlay's alert stream, in the dashboard's history and in the store (`fields`); it is
 * defined in cuebot's vocabulary (server/vocabulary.ts), which the overlay page reads too.
 */

// The stored shapes' defaults live with the store; the feature reads them here.
export { DEFAULT_TEMPLATES, defaultAlertSettings } from "../../db/alert-rules.ts";
export { parseAlertType } from "../../db/schema-enums.ts";
export {
  ALERT_TYPES,
  type Alert,
  type AlertFields,
  type AlertSettings,
  type AlertType,
  type SubTier,
} from "../vocabulary.ts";
