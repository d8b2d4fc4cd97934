import type {
  Notification,
  NotificationCounts,
  NotificationPage,
} from "#shared/notifications/notification.schemas.ts";
import type { Ticket, TicketPage, TicketSummary } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity, TicketEvent } from "#shared/tickets/ticket-activity.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import type { ManagedUser } from "#shared/users/user-management.schemas.ts";

export const makeMe = (overrides: Partial<Me> = {}): Me => ({
  id: "user-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  role: "user",
  department: "General",
  status: "Active",
  theme: "system",
  locale: "browser",
  twoFactorEnabled: false,
  mustSetUpTwoFactor: false,
  awaySince: null,
  ...overrides,
});

export const makeTicket = (overrides: Partial<Ticket> = {}): Ticket => ({
  ticketId: "TKT0M5ABCDEF1234567",
  title: "Printer on floor 2 jams",
  description: "Every print job jams after the first page.",
  category: "Hardware",
  priority: "Low",
  status: "Open",
  createdBy: "user-1",
  createdByName: "Ada Lovelace",
  assignedTo: null,
  assignedToName: null,
  department: "General",
  floor: "2",
  officeNumber: "214",
  createdAt: "2025-11-20T09:30:00.000Z",
  updatedAt: "2025-11-20T09:30:00.000Z",
  autoCloseAt: null,
  sla: null,
  onHoldSince: null,
  holdUntil: null,
  teamId: null,
  teamName: null,
  tags: null,
  mergedIntoId: null,
  externalRef: null,
  ...overrides,
});

export const emptyPage: TicketPage = { items: [], nextCursor: null, total: { count: 0, capped: false } };

export const emptySummary: TicketSummary = {
  total: 0,
  open: 0,
  inProgress: 0,
  resolved: 0,
  closed: 0,
  assignedToMe: 0,
  unassigned: 0,
  resolvedByMe: 0,
  overdue: null,
  dueSoon: null,
};

export const makeActivity = (overrides: Partial<TicketActivity> = {}): TicketActivity => ({
  comments: [],
  feedback: null,
  events: [],
  attachments: [],
  ...overrides,
});

export const makeEvent = (overrides: Partial<TicketEvent> = {}): TicketEvent => ({
  id: "event-1",
  type: "created",
  actorId: "user-1",
  actorName: "Ada Lovelace",
  fromStatus: null,
  toStatus: null,
  message: null,
  rating: null,
  fromAssigneeName: null,
  toAssigneeName: null,
  fromTeamName: null,
  toTeamName: null,
  changes: null,
  slaTarget: null,
  dueAt: null,
  idleDays: null,
  holdUntil: null,
  holdEnd: null,
  teamName: null,
  assignmentMode: null,
  tagsAdded: null,
  tagsRemoved: null,
  linkedTicketId: null,
  linkRelation: null,
  via: null,
  at: "2025-11-20T09:30:00.000Z",
  ...overrides,
});

export const makeNotification = (overrides: Partial<Notification> = {}): Notification => ({
  notificationId: "1",
  uid: "user-1",
  type: "ticket_comment",
  message: "Theo Tech commented on ticket TKT0M5ABCDEF1234567: On my way",
  params: null,
  ticketId: "TKT0M5ABCDEF1234567",
  broadcast: false,
  read: false,
  timestamp: new Date().toISOString(),
  ...overrides,
});

export const notificationPage = (items: Notification[]): NotificationPage => ({ items, nextCursor: null });

export const countsOf = (items: Notification[]): NotificationCounts => {
  const unread = items.filter((item) => !item.read).length;
  return { all: items.length, unread, read: items.length - unread };
};
export const makeManagedUser = (overrides: Partial<ManagedUser> = {}): ManagedUser => ({
  id: "user-2",
  name: "Tess Tech",
  email: "tess@corp.test",
  role: "user",
  department: "General",
  status: "Active",
  createdAt: "2025-11-20T09:30:00.000Z",
  lastLogin: null,
  ...overrides,
});
