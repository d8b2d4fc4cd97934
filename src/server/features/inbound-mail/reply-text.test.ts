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
