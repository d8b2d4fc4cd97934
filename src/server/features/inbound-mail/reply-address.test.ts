import { describe, expect, it } from "vitest";
import { replyAddress, replyLocalPart, verifyReplyLocalPart } from "./reply-address.ts";

const secret = "test-secret-test-secret-test-secret-0123";
const target = { ticketId: "TKTMHX2K9AB12CD34EF", userId: "usr_Ab12-x", isInternal: false };

describe("signed reply addresses", () => {
  it("names the ticket and the person it was made for, and verifies", () => {
    const address = replyAddress(secret, "help.example.org", target)!;
    expect(address).toMatch(/^reply\+TKTMHX2K9AB12CD34EF\.usr_Ab12-x\.[0-9a-f]{24}@help\.example\.org$/);
    expect(verifyReplyLocalPart(secret, address.split("@")[0]!)).toEqual(target);
  });

  it("keeps an internal-note address apart from a comment address", () => {
    const note = replyLocalPart(secret, { ...target, isInternal: true })!;
    expect(note).toContain(".note.");
    expect(verifyReplyLocalPart(secret, note)).toEqual({ ...target, isInternal: true });
    // Dropping ".note" to turn a staff-only reply into a public comment breaks the signature.
    expect(verifyReplyLocalPart(secret, note.replace(".note", ""))).toBeNull();
  });

  it("refuses another ticket, another person, another secret or a damaged signature", () => {
    const local = replyLocalPart(secret, target)!;
    expect(
      verifyReplyLocalPart(secret, local.replace("TKTMHX2K9AB12CD34EF", "TKTMHX2K9AB12CD34EG")),
    ).toBeNull();
    expect(verifyReplyLocalPart(secret, local.replace("usr_Ab12-x", "usr_Ab12-y"))).toBeNull();
    expect(verifyReplyLocalPart("another-secret-another-secret-0000", local)).toBeNull();
    expect(verifyReplyLocalPart(secret, `${local.slice(0, -1)}x`)).toBeNull();
    expect(verifyReplyLocalPart(secret, local.slice(0, -2))).toBeNull();
    expect(verifyReplyLocalPart(secret, "reply+nonsense")).toBeNull();
    expect(verifyReplyLocalPart(secret, "helpdesk")).toBeNull();
  });

  it("survives a mail system that lower-cases the ticket id and signature", () => {
    const local = replyLocalPart(secret, target)!;
    const [prefix, ticketId, userId, signature] = local.split(/[+.]/) as [string, string, string, string];
    const lowered = `${prefix}+${ticketId.toLowerCase()}.${userId}.${signature.toUpperCase()}`;
    expect(verifyReplyLocalPart(secret, lowered)).toEqual(target);
  });

  it("makes no address for an id that cannot stand in an e-mail address", () => {
    expect(replyLocalPart(secret, { ...target, userId: "has.dot" })).toBeNull();
    expect(replyLocalPart(secret, { ...target, userId: "has space" })).toBeNull();
  });
});
