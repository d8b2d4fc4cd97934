import { roleLabel as userRoleLabel } from "#client/lib/user-labels.ts";
import type { DemoUserInput } from "#shared/users/demo-user.schemas.ts";
import type { Role } from "#shared/users/roles.ts";

export interface DemoUser extends DemoUserInput {
  id: string;
}

/**
 * What the demo shows for a new or reset user. It exists only in this page: the real app never
 * sets a password for anyone, it mails a link and the person chooses their own.
 */
export const demoDefaultPassword = "Demo@1234";

/** The ten hard-coded sample users. */
export const sampleDemoUsers: readonly DemoUser[] = [
  {
    id: "demo-1",
    name: "Alice Johnson",
    email: "alice.johnson@example.com",
    role: "admin",
    department: "IT",
    status: "Active",
  },
  {
    id: "demo-2",
    name: "Brian Smith",
    email: "brian.smith@example.com",
    role: "technician",
    department: "IT",
    status: "Active",
  },
  {
    id: "demo-3",
    name: "Carla Gomez",
    email: "carla.gomez@example.com",
    role: "user",
    department: "Finance",
    status: "Active",
  },
  {
    id: "demo-4",
    name: "David Lee",
    email: "david.lee@example.com",
    role: "user",
    department: "Marketing",
    status: "Inactive",
  },
  {
    id: "demo-5",
    name: "Emma Wilson",
    email: "emma.wilson@example.com",
    role: "technician",
    department: "Operations",
    status: "Active",
  },
  {
    id: "demo-6",
    name: "Farid Khan",
    email: "farid.khan@example.com",
    role: "user",
    department: "Sales",
    status: "Active",
  },
  {
    id: "demo-7",
    name: "Grace Chen",
    email: "grace.chen@example.com",
    role: "admin",
    department: "Human Resources",
    status: "Active",
  },
  {
    id: "demo-8",
    name: "Hugo Martin",
    email: "hugo.martin@example.com",
    role: "user",
    department: "General",
    status: "Active",
  },
  {
    id: "demo-9",
    name: "Isabel Rossi",
    email: "isabel.rossi@example.com",
    role: "technician",
    department: "Facilities",
    status: "Inactive",
  },
  {
    id: "demo-10",
    name: "James O'Connor",
    email: "james.oconnor@example.com",
    role: "user",
    department: "Finance",
    status: "Active",
  },
];

/** User management shows roles capitalised. */
export const roleLabel = (role: Role) => userRoleLabel(role);

export interface DemoUserFilters {
  search: string;
  role: Role | "all";
}

/** The search matches any part of the name, email or department, in any case. */
export function filterDemoUsers(users: readonly DemoUser[], { search, role }: DemoUserFilters) {
  const needle = search.trim().toLowerCase();
  return users.filter(
    (user) =>
      (role === "all" || user.role === role) &&
      (needle === "" ||
        [user.name, user.email, user.department].some((text) => text.toLowerCase().includes(needle))),
  );
}

export function countDemoUsers(users: readonly DemoUser[]) {
  return {
    total: users.length,
    active: users.filter((user) => user.status === "Active").length,
    technicians: users.filter((user) => user.role === "technician").length,
    admins: users.filter((user) => user.role === "admin").length,
  };
}

/** Another user already has this email (any case); `exceptId` is the one being edited. */
export const isEmailTaken = (users: readonly DemoUser[], email: string, exceptId?: string) =>
  users.some((user) => user.id !== exceptId && user.email.toLowerCase() === email.trim().toLowerCase());
