/**
 * What "send a test alert" shows for each type (the dashboard's test button and the Alerts view's
 * preview): plausible fields, every one the type has filled, so a template's placeholders all show.
 */
import type { AlertFields, AlertType } from "./model.ts";

/** The tester's name: login-shaped, so a chat thanks line names it too. */
export const SAMPLE_USER = "CuebotTester";

const SAMPLES: Readonly<Record<AlertType, Omit<AlertFields, "user">>> = {
  follow: { amount: null, months: null, tier: null, reward: null, message: null },
  subscribe: { amount: null, months: null, tier: "1", reward: null, message: null },
  resub: { amount: 7, months: 7, tier: "1", reward: null, message: "Seven months already, still here!" },
  gift: { amount: 5, months: null, tier: "1", reward: null, message: null },
  cheer: { amount: 500, months: null, tier: null, reward: null, message: "Cheer500 great stream!" },
  raid: { amount: 42, months: null, tier: null, reward: null, message: null },
  redemption: { amount: null, months: null, tier: null, reward: "Hydrate!", message: "Drink some water" },
};

/** A fresh copy of the type's sample fields (the caller may keep or change it). */
export function sampleFields(type: AlertType): AlertFields {
  return { user: SAMPLE_USER, ...SAMPLES[type] };
}
