import { describe, expect, it } from "vitest";
import { defaultBusinessCalendar } from "./business-calendar.schemas.ts";
import { defaultSlaPolicy, type SlaPolicy, slaPolicySchema } from "./sla-policy.schemas.ts";
import {
  dueTimesOf,
  formatSpan,
  slaDueAtOf,
  slaStateOf,
  type TicketSlaFacts,
  ticketSlaOf,
} from "./ticket-sla.ts";

const at = (iso: string) => new Date(iso);
// Monday 2030-01-07; the default calendar works Monday–Friday 09:00–17:00 UTC.
const mondayNine = at("2030-01-07T09:00:00Z");

describe("dueTimesOf", () => {
  it("counts High's 1 h / 8 h in business time and warns at 80% of each", () => {
    const due = dueTimesOf(defaultSlaPolicy, defaultBusinessCalendar, "High", at("2030-01-07T10:00:00Z"));
    expect(due).toEqual({
      firstResponseDueAt: at("2030-01-07T11:00:00Z"),
      firstResponseWarnAt: at("2030-01-07T10:48:00Z"),
      // 7 hours on Monday (10:00–17:00), the eighth on Tuesday morning.
      resolutionDueAt: at("2030-01-08T10:00:00Z"),
      // 80% of 480 minutes is 384: 6 h 24 min after 10:00 on Monday.
      resolutionWarnAt: at("2030-01-07T16:24:00Z"),
    });
  });

  it("a ticket raised on Friday afternoon is due on Monday: the weekend does not count", () => {
    const due = dueTimesOf(defaultSlaPolicy, defaultBusinessCalendar, "High", at("2030-01-11T16:30:00Z"));
    expect(due.firstResponseDueAt).toEqual(at("2030-01-14T09:30:00Z"));
  });

  it("a ticket raised at night starts counting at the next opening", () => {
    const due = dueTimesOf(defaultSlaPolicy, defaultBusinessCalendar, "High", at("2030-01-07T03:00:00Z"));
    expect(due.firstResponseDueAt).toEqual(at("2030-01-07T10:00:00Z"));
  });

  it("no target: no due time and no warning", () => {
    const policy: SlaPolicy = {
      ...defaultSlaPolicy,
      targets: { ...defaultSlaPolicy.targets, Low: { firstResponseMinutes: null, resolutionMinutes: 120 } },
    };
    const due = dueTimesOf(policy, defaultBusinessCalendar, "Low", mondayNine);
    expect(due.firstResponseDueAt).toBeNull();
    expect(due.firstResponseWarnAt).toBeNull();
    expect(due.resolutionDueAt).toEqual(at("2030-01-07T11:00:00Z"));
  });
});

const facts = (overrides: Partial<TicketSlaFacts> = {}): TicketSlaFacts => ({
  status: "Open",
  firstResponseDueAt: at("2030-01-07T10:00:00Z"),
  firstRespondedAt: null,
  resolutionDueAt: at("2030-01-07T17:00:00Z"),
  resolvedAt: null,
  onHoldSince: null,
  ...overrides,
});

describe("slaDueAtOf", () => {
  it("is the earlier unmet target while the ticket runs", () => {
    expect(slaDueAtOf(facts())).toEqual(at("2030-01-07T10:00:00Z"));
    expect(
      slaDueAtOf(facts({ firstRespondedAt: at("2030-01-07T09:30:00Z"), status: "In Progress" })),
    ).toEqual(at("2030-01-07T17:00:00Z"));
  });

  it("is null once Resolved or Closed, or when no target is owed", () => {
    expect(slaDueAtOf(facts({ status: "Resolved", resolvedAt: mondayNine }))).toBeNull();
    expect(slaDueAtOf(facts({ status: "Closed", resolvedAt: mondayNine }))).toBeNull();
    expect(slaDueAtOf(facts({ firstResponseDueAt: null, resolutionDueAt: null }))).toBeNull();
  });

  it("leaves out the resolution while the ticket is on hold (decision 070)", () => {
    const responded = { firstRespondedAt: at("2030-01-07T09:30:00Z"), status: "In Progress" as const };
    expect(slaDueAtOf(facts({ ...responded, onHoldSince: at("2030-01-07T11:00:00Z") }))).toBeNull();
    // The first response is not paused: a held ticket that still owes one keeps that due time.
    expect(slaDueAtOf(facts({ status: "In Progress", onHoldSince: at("2030-01-07T09:05:00Z") }))).toEqual(
      at("2030-01-07T10:00:00Z"),
    );
  });
});

describe("slaStateOf", () => {
  const due = at("2030-01-07T12:00:00Z");
  it.each([
    ["running", "2030-01-07T10:00:00Z"],
    ["due_soon", "2030-01-07T11:00:00Z"],
    ["due_soon", "2030-01-07T11:59:59Z"],
    ["overdue", "2030-01-07T12:00:00Z"],
    ["overdue", "2030-01-09T12:00:00Z"],
  ] as const)("is %s at %s for a target due at 12:00 with a 60-minute window", (state, now) => {
    expect(slaStateOf({ dueAt: due, metAt: null }, at(now), 60)).toBe(state);
  });

  it("is met on time, met late, or none without a target", () => {
    expect(
      slaStateOf({ dueAt: due, metAt: at("2030-01-07T12:00:00Z") }, at("2030-01-09T00:00:00Z"), 60),
    ).toBe("met");
    expect(slaStateOf({ dueAt: due, metAt: at("2030-01-07T12:00:01Z") }, mondayNine, 60)).toBe("met_late");
    expect(slaStateOf({ dueAt: null, metAt: null }, mondayNine, 60)).toBe("none");
  });
});

describe("ticketSlaOf", () => {
  it("a ticket closed without a first response met both targets when it was closed", () => {
    const sla = ticketSlaOf(
      facts({ status: "Closed", resolvedAt: at("2030-01-07T11:00:00Z") }),
      at("2030-01-08T09:00:00Z"),
      60,
    );
    expect(sla.firstResponse).toEqual({
      dueAt: "2030-01-07T10:00:00.000Z",
      metAt: "2030-01-07T11:00:00.000Z",
      state: "met_late",
    });
    expect(sla.resolution.state).toBe("met");
    expect(sla.serverNow).toBe("2030-01-08T09:00:00.000Z");
  });

  it("shows the resolution paused while on hold, even past its stored due time", () => {
    const sla = ticketSlaOf(
      facts({
        status: "In Progress",
        firstRespondedAt: at("2030-01-07T09:30:00Z"),
        onHoldSince: at("2030-01-07T11:00:00Z"),
      }),
      at("2030-01-08T09:00:00Z"),
      60,
    );
    expect(sla.resolution).toEqual({ dueAt: "2030-01-07T17:00:00.000Z", metAt: null, state: "paused" });
    expect(sla.firstResponse.state).toBe("met");
  });
});

describe("slaPolicySchema", () => {
  it("accepts the defaults and no target as null", () => {
    expect(slaPolicySchema.parse(defaultSlaPolicy)).toEqual(defaultSlaPolicy);
  });

  it("names the priority and the target in its messages", () => {
    const result = slaPolicySchema.safeParse({
      ...defaultSlaPolicy,
      targets: { ...defaultSlaPolicy.targets, High: { firstResponseMinutes: 1.5, resolutionMinutes: 0 } },
      dueSoonMinutes: 0,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "High: first response target must be a whole number of minutes from 1 to 525600, or empty for no target",
      "High: resolution target must be a whole number of minutes from 1 to 525600, or empty for no target",
      "Due soon window must be a whole number of minutes from 1 to 10080",
    ]);
  });
});

describe("formatSpan", () => {
  it.each([
    [30_000, "under a minute"],
    [35 * 60_000, "35m"],
    [134 * 60_000, "2h 14m"],
    [120 * 60_000, "2h"],
    [(3 * 1440 + 4 * 60 + 5) * 60_000, "3d 4h"],
    [-35 * 60_000, "35m"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatSpan(ms)).toBe(text);
  });
});
