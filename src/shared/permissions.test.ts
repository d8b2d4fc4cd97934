import { describe, expect, it } from "vitest";
import { type Actor, can, type TicketFacts } from "./permissions.ts";

const creator: Actor = { id: "u1", role: "user" };
const otherUser: Actor = { id: "u2", role: "user" };
const tech: Actor = { id: "t1", role: "technician" };
const otherTech: Actor = { id: "t2", role: "technician" };
const admin: Actor = { id: "a1", role: "admin" };
const noRole: Actor = { id: "n1", role: null };

const open: TicketFacts = { createdBy: "u1", assignedTo: null, status: "Open" };
const assignedToTech: TicketFacts = { createdBy: "u1", assignedTo: "t1", status: "In Progress" };

describe("can.viewTicket", () => {
  it("lets the creator, any technician while unassigned, and admins see an open ticket", () => {
    expect(can.viewTicket(creator, open)).toBe(true);
    expect(can.viewTicket(tech, open)).toBe(true);
    expect(can.viewTicket(admin, open)).toBe(true);
    expect(can.viewTicket(otherUser, open)).toBe(false);
    expect(can.viewTicket(noRole, open)).toBe(false);
  });

  it("hides an assigned ticket from other technicians", () => {
    expect(can.viewTicket(tech, assignedToTech)).toBe(true);
    expect(can.viewTicket(otherTech, assignedToTech)).toBe(false);
  });
});

describe("can.sharePresence", () => {
  it("lets staff who may see the ticket share and hear presence, never its requester or anyone else", () => {
    expect(can.sharePresence(tech, open)).toBe(true);
    expect(can.sharePresence(admin, assignedToTech)).toBe(true);
    expect(can.sharePresence(tech, assignedToTech)).toBe(true);
    expect(can.sharePresence(otherTech, assignedToTech)).toBe(false);
    expect(can.sharePresence(creator, open)).toBe(false);
    expect(can.sharePresence(otherUser, open)).toBe(false);
    expect(can.sharePresence(noRole, open)).toBe(false);
  });
});

describe("can.viewAttachment", () => {
  it("follows the ticket for a ticket's file, and staff only for an internal note's", () => {
    expect(can.viewAttachment(creator, { ticket: open }, { isInternal: false })).toBe(true);
    expect(can.viewAttachment(creator, { ticket: open }, { isInternal: true })).toBe(false);
    expect(can.viewAttachment(tech, { ticket: open }, { isInternal: true })).toBe(true);
    expect(can.viewAttachment(otherUser, { ticket: open }, { isInternal: false })).toBe(false);
  });

  it("follows the article for an article's image, exactly as can.viewArticle", () => {
    for (const status of ["draft", "published"] as const) {
      for (const visibility of ["public", "internal"] as const) {
        const article = { status, visibility };
        for (const actor of [creator, tech, admin, noRole]) {
          expect(
            can.viewAttachment(actor, { article }, { isInternal: false }),
            `${actor.role} ${status} ${visibility}`,
          ).toBe(can.viewArticle(actor, article));
        }
      }
    }
    const published = { status: "published", visibility: "public" } as const;
    expect(can.viewAttachment(creator, { article: published }, { isInternal: false })).toBe(true);
    expect(can.viewAttachment(noRole, { article: published }, { isInternal: false })).toBe(false);
  });
});

describe("can.createTicket", () => {
  it("allows users and admins, refuses technicians and people without a role", () => {
    expect(can.createTicket(creator)).toBe(true);
    expect(can.createTicket(admin)).toBe(true);
    expect(can.createTicket(tech)).toBe(false);
    expect(can.createTicket(noRole)).toBe(false);
  });
});

describe("ticket lifecycle rules", () => {
  it("lets only a technician assign an open, unassigned ticket to themself", () => {
    expect(can.assignToSelf(tech, open)).toBe(true);
    expect(can.assignToSelf(admin, open)).toBe(false);
    expect(can.assignToSelf(tech, assignedToTech)).toBe(false);
    expect(can.assignToSelf(tech, { ...open, status: "Resolved" })).toBe(false);
  });

  it("never changes the status of a closed ticket, and never for a user", () => {
    expect(can.changeStatus(tech, assignedToTech)).toBe(true);
    expect(can.changeStatus(admin, { ...assignedToTech, status: "Closed" })).toBe(false);
    expect(can.changeStatus(creator, open)).toBe(false);
  });

  it("takes feedback only from the creator of a resolved ticket", () => {
    expect(can.giveFeedback(creator, { ...assignedToTech, status: "Resolved" })).toBe(true);
    expect(can.giveFeedback(creator, assignedToTech)).toBe(false);
    expect(can.giveFeedback(admin, { ...assignedToTech, status: "Resolved" })).toBe(false);
  });
});

describe("can.putOnHold and can.changeHold (decision 070)", () => {
  const working = { ...assignedToTech, onHoldSince: null };
  const held = { ...assignedToTech, onHoldSince: "2030-01-07T10:00:00.000Z" };

  it("lets staff who may change the status put an In Progress ticket on hold, once", () => {
    expect(can.putOnHold(tech, working)).toBe(true);
    expect(can.putOnHold(admin, working)).toBe(true);
    expect(can.putOnHold(otherTech, working)).toBe(false);
    expect(can.putOnHold(creator, working)).toBe(false);
    expect(can.putOnHold(noRole, working)).toBe(false);
    expect(can.putOnHold(tech, held)).toBe(false);
    for (const status of ["Open", "Resolved", "Closed"] as const) {
      expect(can.putOnHold(admin, { ...working, status }), status).toBe(false);
    }
  });

  it("lets the same staff change or lift a hold, never the requester", () => {
    expect(can.changeHold(tech, held)).toBe(true);
    expect(can.changeHold(admin, held)).toBe(true);
    expect(can.changeHold(otherTech, held)).toBe(false);
    expect(can.changeHold(creator, held)).toBe(false);
    expect(can.changeHold(tech, working)).toBe(false);
  });
});

describe("user management rules", () => {
  it("lets only admins manage users, and never deactivate themselves", () => {
    expect(can.manageUsers(admin)).toBe(true);
    expect(can.manageUsers(tech)).toBe(false);
    expect(can.manageUsers(creator)).toBe(false);
    expect(can.deactivateUser(admin, { id: "someone-else" })).toBe(true);
    expect(can.deactivateUser(admin, { id: admin.id })).toBe(false);
    expect(can.deactivateUser(tech, { id: "someone-else" })).toBe(false);
  });
});

describe("can.assignTo and can.returnToQueue", () => {
  const closed: TicketFacts = { ...assignedToTech, status: "Closed" };
  it("lets an admin assign any ticket that is not Closed, and return it to the queue", () => {
    expect([open, assignedToTech, closed].map((t) => can.assignTo(admin, t))).toEqual([true, true, false]);
    expect([open, assignedToTech, closed].map((t) => can.returnToQueue(admin, t))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("lets a technician hand on only their own ticket, never to the queue", () => {
    expect(can.assignTo(tech, assignedToTech)).toBe(true);
    expect(can.assignTo(tech, open)).toBe(false);
    expect(can.assignTo(otherTech, assignedToTech)).toBe(false);
    expect(can.assignTo(tech, closed)).toBe(false);
    expect(can.returnToQueue(tech, assignedToTech)).toBe(false);
    expect(can.assignTo(creator, assignedToTech)).toBe(false);
  });
});

describe("can.findPeople", () => {
  it("lets technicians and admins find people in the palette, never users or people without a role", () => {
    expect(can.findPeople(admin)).toBe(true);
    expect(can.findPeople(tech)).toBe(true);
    expect(can.findPeople(creator)).toBe(false);
    expect(can.findPeople(noRole)).toBe(false);
  });
});

describe("can.seeReports and can.seeTechnicianSatisfaction", () => {
  it("shows reports to staff, and satisfaction per technician to admins alone", () => {
    expect([admin, tech, creator, noRole].map(can.seeReports)).toEqual([true, true, false, false]);
    expect([admin, tech, creator, noRole].map(can.seeTechnicianSatisfaction)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("can.editTicketDetails and can.editDescription", () => {
  const closed: TicketFacts = { ...assignedToTech, status: "Closed" };

  it("lets staff who see the ticket correct its details; an admin even once it is Closed", () => {
    expect(can.editTicketDetails(tech, open)).toBe(true);
    expect(can.editTicketDetails(tech, assignedToTech)).toBe(true);
    expect(can.editTicketDetails(admin, closed)).toBe(true);
    expect(can.editTicketDetails(tech, closed)).toBe(false);
    expect(can.editTicketDetails(otherTech, assignedToTech)).toBe(false);
    expect(can.editTicketDetails(creator, open)).toBe(false);
  });

  it("lets only the creator edit the description, and only while Open", () => {
    expect(can.editDescription(creator, open)).toBe(true);
    expect(can.editDescription(creator, assignedToTech)).toBe(false);
    expect(can.editDescription(tech, open)).toBe(false);
    expect(can.editDescription(admin, open)).toBe(false);
    expect(can.editDescription({ id: "u1", role: null }, open)).toBe(false);
  });
});

describe("can.* for saved responses", () => {
  const techsOwn = { scope: "personal", ownerId: "t1" } as const;
  const shared = { scope: "shared", ownerId: "a1" } as const;

  it("lets staff use them and refuses users and people without a role", () => {
    expect([tech, admin].every(can.accessCannedResponses)).toBe(true);
    expect([creator, noRole].some(can.accessCannedResponses)).toBe(false);
  });

  it("shows a personal response to its owner only, a shared one to every staff member", () => {
    expect(can.viewCannedResponse(tech, techsOwn)).toBe(true);
    expect(can.viewCannedResponse(otherTech, techsOwn)).toBe(false);
    expect(can.viewCannedResponse(admin, techsOwn)).toBe(false);
    expect([tech, otherTech, admin].every((a) => can.viewCannedResponse(a, shared))).toBe(true);
    expect(can.viewCannedResponse(creator, shared)).toBe(false);
  });

  it("lets only admins create, edit and delete shared responses", () => {
    expect(can.createCannedResponse(admin, "shared")).toBe(true);
    expect(can.createCannedResponse(tech, "shared")).toBe(false);
    expect(can.manageCannedResponse(admin, shared)).toBe(true);
    expect(can.manageCannedResponse(tech, shared)).toBe(false);
  });

  it("lets staff keep personal responses that only they edit", () => {
    expect(can.createCannedResponse(tech, "personal")).toBe(true);
    expect(can.createCannedResponse(creator, "personal")).toBe(false);
    expect(can.manageCannedResponse(tech, techsOwn)).toBe(true);
    expect(can.manageCannedResponse(otherTech, techsOwn)).toBe(false);
    expect(can.manageCannedResponse(admin, techsOwn)).toBe(false);
  });
});

describe("teams (decision 069)", () => {
  it("lets admins manage teams and staff read them and move a ticket they may see, not Closed", () => {
    expect(can.manageTeams(admin)).toBe(true);
    for (const actor of [creator, tech, noRole]) expect(can.manageTeams(actor)).toBe(false);
    expect(can.seeTeams(tech)).toBe(true);
    expect(can.seeTeams(admin)).toBe(true);
    expect(can.seeTeams(creator)).toBe(false);
    expect(can.seeTeams(noRole)).toBe(false);
    expect(can.changeTicketTeam(tech, open)).toBe(true);
    expect(can.changeTicketTeam(otherTech, assignedToTech)).toBe(false);
    expect(can.changeTicketTeam(admin, assignedToTech)).toBe(true);
    expect(can.changeTicketTeam(creator, open)).toBe(false);
    expect(can.changeTicketTeam(admin, { ...open, status: "Closed" })).toBe(false);
  });
});

describe("links and merging (decision 074)", () => {
  const closed: TicketFacts = { ...assignedToTech, status: "Closed" };

  it("lets staff who may edit a ticket change its links; a Closed one's only an admin", () => {
    expect(can.linkTickets(tech, assignedToTech)).toBe(true);
    expect(can.linkTickets(otherTech, open)).toBe(true);
    expect(can.linkTickets(otherTech, assignedToTech)).toBe(false);
    expect(can.linkTickets(creator, open)).toBe(false);
    expect(can.linkTickets(noRole, open)).toBe(false);
    expect(can.linkTickets(tech, closed)).toBe(false);
    expect(can.linkTickets(admin, closed)).toBe(true);
  });

  it("lets staff who see both tickets merge one into the other while neither is Closed", () => {
    expect(can.mergeTickets(tech, assignedToTech, open)).toBe(true);
    expect(can.mergeTickets(admin, assignedToTech, open)).toBe(true);
    expect(can.mergeTickets(otherTech, open, assignedToTech)).toBe(false);
    expect(can.mergeTickets(creator, open, { ...open, createdBy: "u1" })).toBe(false);
    expect(can.mergeTickets(admin, closed, open)).toBe(false);
    expect(can.mergeTickets(admin, open, closed)).toBe(false);
  });
});

describe("major incidents and their public face (decision 077)", () => {
  const stranger = { isSubscriber: false, isAffectedRequester: false };

  it("lets staff who may see a ticket run it as a major incident while it is not Closed", () => {
    expect(can.runMajorIncident(tech, assignedToTech)).toBe(true);
    expect(can.runMajorIncident(admin, assignedToTech)).toBe(true);
    expect(can.runMajorIncident(otherTech, assignedToTech)).toBe(false);
    expect(can.runMajorIncident(creator, open)).toBe(false);
    expect(can.runMajorIncident(admin, { ...assignedToTech, status: "Closed" })).toBe(false);
  });

  it("shows an open incident's face to everyone signed in, a resolved one's to its followers and affected requesters", () => {
    for (const status of ["Open", "In Progress"] as const) {
      expect(can.seeKnownIssue(otherUser, { status, ...stranger })).toBe(true);
      expect(can.seeKnownIssue(noRole, { status, ...stranger })).toBe(false);
    }
    for (const status of ["Resolved", "Closed"] as const) {
      expect(can.seeKnownIssue(otherUser, { status, ...stranger })).toBe(false);
      expect(can.seeKnownIssue(otherTech, { status, ...stranger })).toBe(false);
      expect(can.seeKnownIssue(otherUser, { status, ...stranger, isSubscriber: true })).toBe(true);
      expect(can.seeKnownIssue(otherUser, { status, ...stranger, isAffectedRequester: true })).toBe(true);
    }
  });
});
