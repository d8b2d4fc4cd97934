import { describe, expect, it } from "vitest";
import { replyTextOf } from "./reply-text.ts";

describe("the new text of an e-mail reply", () => {
  it("cuts at a one-line or wrapped 'On … wrote:' attribution", () => {
    expect(replyTextOf("Thanks, fixed!\n\nOn Mon, 3 Nov 2025, Helpdesk <h@x.test> wrote:\n> Old text")).toBe(
      "Thanks, fixed!",
    );
    expect(
      replyTextOf("Thanks!\r\n\r\nOn Mon, 3 Nov 2025 at 10:02, Helpdesk\r\n<h@x.test> wrote:\r\n\r\n> Old"),
    ).toBe("Thanks!");
  });

  it("drops inline '>' quotes and keeps the answers between them", () => {
    expect(replyTextOf("> Is it plugged in?\nYes.\n> Which floor?\nThird.")).toBe("Yes.\nThird.");
  });

  it("cuts Outlook's quoted header block and 'Original Message' separator", () => {
    expect(
      replyTextOf("Works now.\n\nFrom: Helpdesk <h@x.test>\nSent: Monday\nTo: me\nSubject: Re\n\nOld"),
    ).toBe("Works now.");
    expect(replyTextOf("Done\n-----Original Message-----\nFrom: x")).toBe("Done");
  });

  it("cuts Outlook's rule with its header block: the HTML's <hr> as dashes, the plain text's underscores", () => {
    // What mailparser makes of an Outlook on the web reply that has only HTML.
    const fromHtml = `Yes, twice. Still broken.\n\n\n\n\n${"-".repeat(80)}\n\nFrom: Helpdesk <helpdesk@test.local>\nSent: Monday, November 23, 2026 10:00 AM\nTo: Ann User <ann@x.test>\nSubject: [Helpdesk] New comment\n \n\nDid you try turning it off and on?`;
    expect(replyTextOf(fromHtml)).toBe("Yes, twice. Still broken.");
    const plain = `Yes, twice.\r\n\r\n${"_".repeat(32)}\r\nFrom: Helpdesk <helpdesk@test.local>\r\nSent: Monday, November 23, 2026 10:00\r\nTo: Ann\r\nSubject: Re\r\n\r\nOld`;
    expect(replyTextOf(plain)).toBe("Yes, twice.");
  });

  it("cuts Outlook's header block in the reader's language, listed or not", () => {
    const rule = "-".repeat(80);
    expect(
      replyTextOf("Merci !\n\nDe : Helpdesk <h@x.test>\nEnvoyé : lundi 23 novembre 2026 10:00\nÀ : Ann"),
    ).toBe("Merci !");
    expect(replyTextOf(`Danke.\n${rule}\nVon: Helpdesk <h@x.test>\nGesendet: Montag\nAn: Ann`)).toBe(
      "Danke.",
    );
    expect(
      replyTextOf(`Grazie.\n${rule}\nDa: Helpdesk <h@x.test>\nInviato: lunedì\nA: Ann\nOggetto: Re\n\nOld`),
    ).toBe("Grazie.");
  });

  it("keeps a person's own rule that is not above a quoted mail", () => {
    expect(replyTextOf("Steps so far:\n----------\n1. Restarted\n2. New cable")).toBe(
      "Steps so far:\n----------\n1. Restarted\n2. New cable",
    );
    expect(replyTextOf("Details\n---\nModel: HP 400\nSerial: 123")).toBe(
      "Details\n---\nModel: HP 400\nSerial: 123",
    );
  });

  it("leaves out a signature after '-- '", () => {
    expect(replyTextOf("See you.\n-- \nAnn, Finance, ext. 42")).toBe("See you.");
  });

  it("keeps a line that merely starts with From: in the person's own text", () => {
    expect(replyTextOf("From: the 3rd floor printer, again.\nIt is jammed.")).toBe(
      "From: the 3rd floor printer, again.\nIt is jammed.",
    );
  });

  it("is empty when the reply is only the quoted mail", () => {
    expect(replyTextOf("> quoted\n> only")).toBe("");
  });
});
