import { describe, expect, it } from "vitest";
import {
  customFieldValueMatches,
  type RoutableTicket,
  type RoutingConditions,
  routeTicket,
  ruleMatches,
  titleHasPhrase,
} from "./routing.ts";

const ticket = (overrides: Partial<RoutableTicket> = {}): RoutableTicket => ({
  title: "VPN drops every hour",
  category: "Network",
  department: "Finance",
  customFields: {},
  ...overrides,
});

const rule = (overrides: Partial<RoutingConditions>): RoutingConditions => ({
  category: null,
  department: null,
  customField: null,
  titleWords: [],
  teamId: "team_network",
  ...overrides,
});

describe("titleHasPhrase", () => {
  it("finds whole words in any case and across punctuation, not parts of words", () => {
    expect(titleHasPhrase("No Wi-Fi on floor 3", "wi-fi")).toBe(true);
    expect(titleHasPhrase("No Wi-Fi on floor 3", "WIFI")).toBe(false);
    expect(titleHasPhrase("VPN drops", "vpn")).toBe(true);
    expect(titleHasPhrase("Network down", "net")).toBe(false);
    expect(titleHasPhrase("The printer on floor 2 jams", "floor 2")).toBe(true);
    expect(titleHasPhrase("The printer on floor 2 jams", "2 floor")).toBe(false);
    expect(titleHasPhrase("Drucker ÄRGER", "ärger")).toBe(true);
    expect(titleHasPhrase("Anything", "!!!")).toBe(false);
  });
});

describe("customFieldValueMatches", () => {
  it("compares by the field's kind of value", () => {
    expect(customFieldValueMatches("laptop", ["desktop", "laptop"])).toBe(true);
    expect(customFieldValueMatches("printer", ["desktop", "laptop"])).toBe(false);
    expect(customFieldValueMatches("true", true)).toBe(true);
    expect(customFieldValueMatches("true", false)).toBe(false);
    expect(customFieldValueMatches("false", false)).toBe(true);
    expect(customFieldValueMatches("12", 12)).toBe(true);
    expect(customFieldValueMatches("12.0", 12)).toBe(true);
    expect(customFieldValueMatches("", 0)).toBe(false);
    expect(customFieldValueMatches("Laptop", "laptop")).toBe(true);
    expect(customFieldValueMatches("2026-01-02", "2026-01-02")).toBe(true);
    expect(customFieldValueMatches("laptop", undefined)).toBe(false);
  });
});

describe("ruleMatches", () => {
  it("holds when each condition it has holds: category, department (any case), custom field, title words", () => {
    expect(ruleMatches(rule({ category: "Network" }), ticket())).toBe(true);
    expect(ruleMatches(rule({ category: "Hardware" }), ticket())).toBe(false);
    expect(ruleMatches(rule({ department: "finance" }), ticket())).toBe(true);
    expect(ruleMatches(rule({ department: "Legal" }), ticket())).toBe(false);
    const withField = ticket({ customFields: { cf_device0001: "laptop" } });
    expect(ruleMatches(rule({ customField: { fieldId: "cf_device0001", value: "laptop" } }), withField)).toBe(
      true,
    );
    expect(
      ruleMatches(rule({ customField: { fieldId: "cf_device0001", value: "printer" } }), withField),
    ).toBe(false);
    expect(ruleMatches(rule({ titleWords: ["printer", "vpn"] }), ticket())).toBe(true);
    expect(ruleMatches(rule({ titleWords: ["printer"] }), ticket())).toBe(false);
  });

  it("needs every condition it has (a Network ticket from Legal is not a Network-and-Finance ticket)", () => {
    const both = rule({ category: "Network", department: "Finance" });
    expect(ruleMatches(both, ticket())).toBe(true);
    expect(ruleMatches(both, ticket({ department: "Legal" }))).toBe(false);
    expect(ruleMatches(both, ticket({ category: "Software" }))).toBe(false);
  });
});

describe("routeTicket", () => {
  it("takes the first rule that matches, in order", () => {
    const rules = [
      rule({ category: "Hardware", teamId: "team_desk" }),
      rule({ titleWords: ["vpn"], teamId: "team_network" }),
      rule({ department: "Finance", teamId: "team_finance" }),
    ];
    expect(routeTicket(rules, null, ticket())).toBe("team_network");
    expect(routeTicket([rules[2]!, rules[1]!], null, ticket())).toBe("team_finance");
  });

  it("falls back to the default team, and to no team without one or without rules", () => {
    const rules = [rule({ category: "Hardware", teamId: "team_desk" })];
    expect(routeTicket(rules, "team_default", ticket())).toBe("team_default");
    expect(routeTicket(rules, null, ticket())).toBeNull();
    expect(routeTicket([], null, ticket())).toBeNull();
    expect(routeTicket([], "team_default", ticket())).toBe("team_default");
  });
});
