/**
 * Placeholders in a saved response, filled when it is inserted into a comment box. Unknown ones (a typo,
 * or a value the ticket does not have) stay as written, so the person sees them before sending.
 */
export const placeholders = [
  { name: "ticket.id", description: "The ticket's id, e.g. TKT…" },
  { name: "ticket.title", description: "The ticket's title" },
  { name: "ticket.status", description: "Its status (Open, In Progress, Resolved, Closed)" },
  { name: "ticket.priority", description: "Its priority (Low, Medium, High)" },
  { name: "ticket.category", description: "Its category (Hardware, Software, Network, Other)" },
  { name: "creator.name", description: "Full name of the person who raised the ticket" },
  { name: "creator.firstName", description: "Their first name" },
  { name: "agent.name", description: "Your full name (the person replying)" },
  { name: "agent.firstName", description: "Your first name" },
] as const;
export type PlaceholderName = (typeof placeholders)[number]["name"];

export interface PlaceholderContext {
  ticket: { ticketId: string; title: string; status: string; priority: string; category: string };
  creatorName: string | null;
  agentName: string | null;
}

// {{ name }} with optional spaces inside the braces; names are letters, digits, dots and underscores.
const placeholderPattern = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

const firstNameOf = (name: string | null) => (name?.trim() ? name.trim().split(/\s+/)[0]! : null);

function valuesOf({
  ticket,
  creatorName,
  agentName,
}: PlaceholderContext): Record<PlaceholderName, string | null> {
  return {
    "ticket.id": ticket.ticketId,
    "ticket.title": ticket.title,
    "ticket.status": ticket.status,
    "ticket.priority": ticket.priority,
    "ticket.category": ticket.category,
    "creator.name": creatorName?.trim() || null,
    "creator.firstName": firstNameOf(creatorName),
    "agent.name": agentName?.trim() || null,
    "agent.firstName": firstNameOf(agentName),
  };
}

const isKnown = (name: string): name is PlaceholderName => placeholders.some((p) => p.name === name);

/** The names of placeholders in `body` that are not in the list, each once, in order of appearance. */
export function unknownPlaceholders(body: string): string[] {
  const names = [...body.matchAll(placeholderPattern)].map((match) => match[1]!);
  return [...new Set(names.filter((name) => !isKnown(name)))];
}

/** `body` with every known placeholder replaced; unknown ones, and known ones without a value, left as written. */
export function fillPlaceholders(body: string, context: PlaceholderContext): string {
  const values = valuesOf(context);
  return body.replace(placeholderPattern, (written, name: string) =>
    isKnown(name) ? (values[name] ?? written) : written,
  );
}
