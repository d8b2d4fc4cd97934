import { afterEach, describe, expect, it } from "vitest";
import { activateLocale } from "#client/lib/i18n.ts";
import { autoClosedText } from "#shared/service-levels/auto-close.schemas.ts";
import { formatSpan } from "#shared/service-levels/format-span.ts";
import { slaEventText } from "#shared/service-levels/sla-escalation.ts";
import { autoClosedSentence, slaEventSentence, spanText } from "./service-level-texts.ts";

afterEach(async () => {
  await activateLocale("en");
});

const minute = 60_000;
const spans = [
  0,
  30_000,
  minute,
  35 * minute,
  60 * minute,
  134 * minute,
  24 * 60 * minute,
  25 * 60 * minute,
  49 * 60 * minute + 1,
];
const at = new Date("2030-01-07T08:00:00.000Z");

describe("the service-level and auto-close sentences", () => {
  it("say in English exactly what the server writes in its notifications", () => {
    for (const ms of spans) {
      expect(spanText(ms)).toBe(formatSpan(ms));
      expect(spanText(-ms)).toBe(formatSpan(-ms));
      for (const target of ["first_response", "resolution"] as const) {
        const times = { dueAt: new Date(at.getTime() + ms), at };
        expect(slaEventSentence("sla_warning", target, times)).toBe(
          slaEventText("sla_warning", target, times),
        );
      }
    }
    for (const target of ["first_response", "resolution"] as const) {
      const times = { dueAt: null, at };
      expect(slaEventSentence("sla_warning", target, times)).toBe(slaEventText("sla_warning", target, times));
      expect(slaEventSentence("sla_breached", target, times)).toBe(
        slaEventText("sla_breached", target, times),
      );
    }
    for (const days of [1, 7]) expect(autoClosedSentence(days)).toBe(autoClosedText(days));
  });

  it("say it in German", async () => {
    await activateLocale("de");
    expect(spanText(134 * minute)).toBe("2 Std. 14 Min.");
    expect(spanText(30_000)).toBe("weniger als eine Minute");
    expect(
      slaEventSentence("sla_warning", "first_response", { dueAt: new Date(at.getTime() + 12 * minute), at }),
    ).toBe("Erste Antwort fällig in 12 Min.");
    expect(slaEventSentence("sla_breached", "resolution", { dueAt: null, at })).toBe(
      "Ziel für die Lösung verfehlt",
    );
    expect(autoClosedSentence(1)).toBe("Nach 1 Tag ohne Aktivität automatisch geschlossen");
    expect(autoClosedSentence(7)).toBe("Nach 7 Tagen ohne Aktivität automatisch geschlossen");
  });
});
