import { describe, expect, it } from "vitest";
import { type BusMessage, decodeBusMessage, encodeBusMessage, maxAnnouncedRecipients } from "./bus.ts";

describe("bus messages", () => {
  it("carry a ticket event's recipients and who may see the ticket, ids only", () => {
    const message: BusMessage = {
      kind: "ticket-event",
      eventId: "evt_1",
      ticketId: "TKTMWZP3KOAAT2IMMF6",
      staffOnly: true,
      recipients: ["usr_a", "usr_b"],
      ticket: { createdBy: "usr_a", assignedTo: null, status: "In Progress" },
    };
    const wire = encodeBusMessage(message);
    expect(decodeBusMessage(wire)).toEqual(message);
    expect(wire.length).toBeLessThan(200);
  });

  it("carry a person's sessions ended, every session changed and the settings changed, in a few bytes", () => {
    for (const message of [
      { kind: "session-ended", userId: "usr_a" },
      { kind: "sessions-changed" },
      { kind: "settings-changed" },
    ] satisfies BusMessage[]) {
      const wire = encodeBusMessage(message);
      expect(decodeBusMessage(wire)).toEqual(message);
      expect(wire.length).toBeLessThan(20);
    }
  });

  it("leave out a recipient list too long for one NOTIFY: every instance then reads the event's rows", () => {
    const people = Array.from({ length: maxAnnouncedRecipients + 1 }, (_, i) => `usr_${i}`);
    const roundTrip = (recipients: string[]) =>
      decodeBusMessage(
        encodeBusMessage({ kind: "ticket-event", eventId: "evt_1", ticketId: "t", recipients }),
      );
    expect(roundTrip(people.slice(1))).toMatchObject({ recipients: people.slice(1) });
    expect(roundTrip(people)).toEqual({ kind: "ticket-event", eventId: "evt_1", ticketId: "t" });
  });

  it("read a message from an instance that sends neither recipients nor facts, and ignore malformed facts", () => {
    expect(decodeBusMessage('{"e":"evt_1","t":"t","f":["usr_a",null,"Open"]}')).toMatchObject({
      ticket: { createdBy: "usr_a", assignedTo: null, status: "Open" },
    });
    expect(decodeBusMessage('{"e":"evt_1","t":"t"}')).toEqual({
      kind: "ticket-event",
      eventId: "evt_1",
      ticketId: "t",
    });
    expect(decodeBusMessage('{"e":"evt_1","t":"t","f":["usr_a",null,"Gone"],"r":[1]}')).toEqual({
      kind: "ticket-event",
      eventId: "evt_1",
      ticketId: "t",
    });
  });

  it("carry a page's presence with the name shown and the ticket's facts, and a closed page with neither", () => {
    const present: BusMessage = {
      kind: "presence",
      ticketId: "TKTMWZP3KOAAT2IMMF6",
      userId: "usr_a",
      pageId: "page-0123456789",
      state: "typing",
      name: "Ada Lovelace",
      role: "technician",
      ticket: { createdBy: "usr_b", assignedTo: null, status: "Open" },
    };
    expect(decodeBusMessage(encodeBusMessage(present))).toEqual(present);
    const { name: _name, role: _role, ticket: _ticket, ...goneWithout } = { ...present, state: null };
    expect(decodeBusMessage(encodeBusMessage(goneWithout))).toEqual(goneWithout);
    // A 100-character name (the longest a person may have) stays far below NOTIFY's 8000 bytes.
    expect(encodeBusMessage({ ...present, name: "x".repeat(100) }).length).toBeLessThan(300);
    expect(decodeBusMessage('{"p":["t","u","c","x"]}')).toBeNull();
    expect(decodeBusMessage('{"p":["t",1,"c","v"]}')).toBeNull();
  });
});
