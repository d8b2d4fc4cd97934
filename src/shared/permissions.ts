import type { ArticleStatus, ArticleVisibility } from "./articles/article.schemas.ts";
import type { CannedResponseScope } from "./canned-responses/canned-response.schemas.ts";
import type { TicketStatus } from "./tickets/ticket-statuses.ts";
import type { Role } from "./users/roles.ts";

/** Who is acting. A person with no role yet (first Google sign-in) may do nothing with tickets. */
export interface Actor {
  id: string;
  role: Role | null;
}

export interface TicketFacts {
  createdBy: string;
  assignedTo: string | null;
  status: TicketStatus;
}

/** A ticket's hold besides its facts (decision 070): since when it waits on the requester, null when it does not. */
export interface HoldFacts extends TicketFacts {
  onHoldSince: Date | string | null;
}

export interface CannedResponseFacts {
  scope: CannedResponseScope;
  ownerId: string;
}

/** A saved view's facts (decision 071): who keeps it and with whom it is shared. */
export interface ViewFacts {
  sharing: "personal" | "staff" | "team";
  ownerId: string | null;
}

/**
 * What decides who sees a major incident's public face (decision 077): its status, and the reader's tie to
 * it (they follow the known issue, or raised a ticket it affects).
 */
export interface KnownIssueFacts {
  status: TicketStatus;
  isSubscriber: boolean;
  isAffectedRequester: boolean;
}

export interface ArticleFacts {
  status: ArticleStatus;
  visibility: ArticleVisibility;
}

/** Technicians and administrators. */
export const isStaff = (a: Actor) => a.role === "technician" || a.role === "admin";

// The server enforces these; the UI mirrors them. The SQL twin of viewTicket is visibleTicketsWhere().
const viewTicket = (a: Actor, t: TicketFacts) =>
  a.role === "admin" ||
  (a.role !== null && t.createdBy === a.id) ||
  (a.role !== null && t.assignedTo === a.id) ||
  (a.role === "technician" && t.assignedTo === null);

const viewArticle = (a: Actor, article: ArticleFacts) =>
  isStaff(a) || (a.role !== null && article.status === "published" && article.visibility === "public");

// Staff's saved tools with a scope, canned responses (decision 013) and macros (decision 075).
/** Only the owner sees a personal one; every staff member sees (and uses) the shared ones. */
const viewScopedTool = (a: Actor, r: CannedResponseFacts) =>
  isStaff(a) && (r.scope === "shared" || r.ownerId === a.id);
/** Any staff member keeps personal ones; only admins write shared ones. */
const createScopedTool = (a: Actor, scope: CannedResponseScope) =>
  scope === "shared" ? a.role === "admin" : isStaff(a);
/** Edit or delete: a personal one by its owner, a shared one by any admin. */
const manageScopedTool = (a: Actor, r: CannedResponseFacts) =>
  r.scope === "shared" ? a.role === "admin" : isStaff(a) && r.ownerId === a.id;

/** Where a linked attachment belongs: a ticket (with its comment or note) or a help article's images. */
export type AttachmentOwner = { ticket: TicketFacts } | { article: ArticleFacts };

export const can = {
  viewTicket,
  /** Users and administrators create tickets; technicians do not. */
  createTicket: (a: Actor) => a.role === "user" || a.role === "admin",
  /**
   * Decision 079: staff raise a ticket for someone else (requesterEmail), who becomes its requester; a
   * technician may, though they raise none of their own.
   */
  raiseTicketFor: (a: Actor) => isStaff(a),
  assignToSelf: (a: Actor, t: TicketFacts) =>
    a.role === "technician" && t.status === "Open" && t.assignedTo === null,
  changeStatus: (a: Actor, t: TicketFacts) => isStaff(a) && viewTicket(a, t) && t.status !== "Closed",
  /**
   * Decision 070: staff who may change the status put an In Progress ticket on hold (waiting on the
   * requester), with a public comment the service requires.
   */
  putOnHold: (a: Actor, t: HoldFacts) =>
    isStaff(a) && viewTicket(a, t) && t.status === "In Progress" && t.onHoldSince === null,
  /** The same staff change a held ticket's lift date or take it off hold. */
  changeHold: (a: Actor, t: HoldFacts) =>
    isStaff(a) && viewTicket(a, t) && t.status === "In Progress" && t.onHoldSince !== null,
  /**
   * An admin (re)assigns any ticket that is not Closed; a technician hands on only a ticket
   * assigned to them. Who it may go to is assignmentRefusal's (src/shared/tickets/ticket-assignment.ts).
   */
  assignTo: (a: Actor, t: TicketFacts) =>
    t.status !== "Closed" && (a.role === "admin" || (a.role === "technician" && t.assignedTo === a.id)),
  /** Only an administrator sends a ticket back to the queue; a technician hands theirs to someone. */
  returnToQueue: (a: Actor, t: TicketFacts) => a.role === "admin" && t.status !== "Closed",
  /**
   * Decision 015: staff who may see the ticket correct its title, category, priority, department, floor
   * and office. A Closed ticket's record is final for technicians; an administrator may still correct it
   * (a misfiled category would otherwise skew the reports forever), as Zammad allows.
   */
  editTicketDetails: (a: Actor, t: TicketFacts) =>
    isStaff(a) && viewTicket(a, t) && (t.status !== "Closed" || a.role === "admin"),
  /** The creator rewords their description while nobody works on it yet (Open). */
  editDescription: (a: Actor, t: TicketFacts) =>
    a.role !== null && t.createdBy === a.id && t.status === "Open",
  comment: (a: Actor, t: TicketFacts) => viewTicket(a, t),
  /** Internal notes: staff who may see the ticket write them; users never read them. */
  addInternalNote: (a: Actor, t: TicketFacts) => isStaff(a) && viewTicket(a, t),
  seeInternal: isStaff,
  /** Service-level due times are the team's promise to manage, shown to staff (decision 019). */
  seeServiceLevels: isStaff,
  /**
   * Decision 072: staff who may see a ticket tell others they are on it (viewing, typing) and are told who
   * else is; requesters neither see staff presence nor are shown.
   */
  sharePresence: (a: Actor, t: TicketFacts) => isStaff(a) && viewTicket(a, t),
  /** Decision 014: anyone who may see a ticket may follow it (and is notified only while they still may). */
  followTicket: (a: Actor, t: TicketFacts) => viewTicket(a, t),
  /** Who follows a ticket, by name: staff only; a user sees only how many. */
  seeFollowers: isStaff,
  /** Staff mention staff (@name); a user's @text stays plain text. */
  mention: isStaff,
  /** Anyone with a role uploads files; they reach a ticket only through a comment, note or new ticket. */
  uploadAttachment: (a: Actor) => a.role !== null,
  /**
   * An attachment is seen with its ticket, one on an internal note by staff alone; an article's image with
   * its article (decision 030).
   */
  viewAttachment: (a: Actor, owner: AttachmentOwner, attachment: { isInternal: boolean }) =>
    "article" in owner
      ? viewArticle(a, owner.article)
      : viewTicket(a, owner.ticket) && (!attachment.isInternal || isStaff(a)),
  giveFeedback: (a: Actor, t: TicketFacts) => t.createdBy === a.id && t.status === "Resolved",
  /** Bulk actions on the staff lists; each ticket is then decided by its single action's rule. */
  changeInBulk: isStaff,
  manageUsers: (a: Actor) => a.role === "admin",
  /** Admin settings (service levels, custom fields, departments) and their change history (decision 023). */
  manageSettings: (a: Actor) => a.role === "admin",
  /** What became of each message the inbound mail listener received (decisions 028 and 083). */
  seeInboundMail: (a: Actor) => a.role === "admin",
  /** Webhook endpoints, their secrets and delivery log (decision 029). */
  manageWebhooks: (a: Actor) => a.role === "admin",
  /** SCIM tokens, with which an identity provider creates and deactivates people (decision 081). */
  manageProvisioning: (a: Actor) => a.role === "admin",
  /** Teams, their members and the routing rules that put new tickets in them (decision 069). */
  manageTeams: (a: Actor) => a.role === "admin",
  /** Automation rules (decision 076): they change tickets on everyone's behalf, so administrators write them. */
  manageAutomation: (a: Actor) => a.role === "admin",
  /**
   * A ticket's team is how staff share the work out (decision 069): staff see it, and read the teams' names
   * for the ticket's team picker; a requester gains nothing from it and is not shown it.
   */
  seeTeams: isStaff,
  /** Staff who may see the ticket move it to another team (or to none) while it is not Closed. */
  changeTicketTeam: (a: Actor, t: TicketFacts) => isStaff(a) && viewTicket(a, t) && t.status !== "Closed",
  /** The command palette's people results: staff find active people by name (name and role only). */
  findPeople: isStaff,
  /** Saved replies (decision 013) are staff tools: users never see any of them. */
  accessCannedResponses: isStaff,
  viewCannedResponse: viewScopedTool,
  createCannedResponse: createScopedTool,
  manageCannedResponse: manageScopedTool,
  /** Macros (decision 075) are staff tools with canned responses' scopes: users never see any. */
  accessMacros: isStaff,
  viewMacro: viewScopedTool,
  createMacro: createScopedTool,
  manageMacro: manageScopedTool,
  /** Decision 030: technicians and admins write knowledge-base articles (any article, drafts included). */
  writeArticles: isStaff,
  /**
   * Staff read every article; anyone else with a role reads published public ones only: a draft or an
   * internal article does not exist for a user (404). The SQL twin is visibleArticlesWhere().
   */
  viewArticle,
  /** "Was this helpful?": a published article its reader may see. */
  voteOnArticle: (a: Actor, article: ArticleFacts) =>
    a.role !== null && article.status === "published" && (isStaff(a) || article.visibility === "public"),
  /** Views, votes and deflections per article are the team's figures. */
  seeArticleStats: isStaff,
  /** Decision 027: reports show the whole service (counts, times, satisfaction) to staff. */
  seeReports: isStaff,
  /** Satisfaction per technician rates people: administrators only, never their colleagues. */
  seeTechnicianSatisfaction: (a: Actor) => a.role === "admin",
  /**
   * Decision 073: staff narrow their lists to a team (`team=`) or to their own teams (the team tabs); it
   * never widens what they may see (viewTicket is unchanged). Users are in no team.
   */
  listByTeam: isStaff,
  /** Each team's open tickets in all (the admin home): only for whoever sees every ticket. */
  countAllByTeam: (a: Actor) => a.role === "admin",
  /**
   * Decision 071: tags are staff's labels. Staff see them and filter the lists by them; a requester is not
   * shown them (a label like "difficult" or "duplicate" is not meant for them).
   */
  seeTags: isStaff,
  /** Staff who may see the ticket add and remove its tags while it is not Closed. */
  changeTicketTags: (a: Actor, t: TicketFacts) => isStaff(a) && viewTicket(a, t) && t.status !== "Closed",
  /**
   * Decision 074: staff link tickets and remove links from a ticket they may edit (editTicketDetails: a
   * Closed ticket only by an administrator); the other ticket need only be one they may see.
   */
  linkTickets: (a: Actor, t: TicketFacts) =>
    isStaff(a) && viewTicket(a, t) && (t.status !== "Closed" || a.role === "admin"),
  /**
   * Staff merge a duplicate into another ticket when they may see both and neither is Closed (a merged
   * ticket is Closed): the duplicate's comments, files and followers move to the target.
   */
  mergeTickets: (a: Actor, duplicate: TicketFacts, target: TicketFacts) =>
    isStaff(a) &&
    viewTicket(a, duplicate) &&
    viewTicket(a, target) &&
    duplicate.status !== "Closed" &&
    target.status !== "Closed",
  /**
   * Decision 077: staff who may edit a ticket (editTicketDetails, but never a Closed one: an incident is
   * news while it runs) declare it a major incident, change its headline, end it, link affected tickets to
   * it and post its updates.
   */
  runMajorIncident: (a: Actor, t: TicketFacts) => isStaff(a) && viewTicket(a, t) && t.status !== "Closed",
  /**
   * Decision 077: a major incident's public face (headline, status, declared time, public updates), never
   * the ticket: every signed-in person while it is open (Open or In Progress), and once it is resolved or
   * closed its followers and the requesters of the tickets it affects.
   */
  seeKnownIssue: (a: Actor, issue: KnownIssueFacts) =>
    a.role !== null &&
    (issue.status === "Open" ||
      issue.status === "In Progress" ||
      issue.isSubscriber ||
      issue.isAffectedRequester),
  /** Anyone with a role keeps personal saved views of a list (decision 071). */
  saveViews: (a: Actor) => a.role !== null,
  /** Only administrators share a view with all staff or with a team. */
  shareViews: (a: Actor) => a.role === "admin",
  /** Rename or delete: a personal view by its owner, a shared one by any administrator. */
  manageView: (a: Actor, view: ViewFacts) =>
    view.sharing === "personal" ? a.role !== null && view.ownerId === a.id : a.role === "admin",
  /** How a team gives out its new tickets (off, round robin, fewest open) is an administrator's choice. */
  changeTeamAssignment: (a: Actor) => a.role === "admin",
  /** A technician marks themselves away and back: the teams' auto-assignment skips them meanwhile. */
  markAway: (a: Actor) => a.role === "technician",
  /** An admin never deactivates themself (they would lock themselves out mid-task). */
  deactivateUser: (a: Actor, target: { id: string }) => a.role === "admin" && a.id !== target.id,
};
