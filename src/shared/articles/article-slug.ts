/**
 * An article's address is /kb/<words of its title>-<id>. The id alone finds it, so the words may change
 * with the title and an old address still leads to the article (the page replaces it with the new one).
 */
export function articleSlug(id: number, title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return words ? `${words}-${id}` : String(id);
}

/** The id at the end of a slug ("connect-to-the-vpn-12" → 12), or null when there is none. */
export function articleIdFromSlug(slug: string): number | null {
  const match = /(?:^|-)(\d{1,9})$/.exec(slug);
  return match ? Number(match[1]) : null;
}

export const articlePath = (slug: string) => `/kb/${slug}`;

/** A pasted /kb/… link in a comment: the slug, or null when the text is not one. */
export const articleLinkPattern = /(?:https?:\/\/[^\s/]+)?\/kb\/([a-z0-9-]*\d)(?![\w-])/g;
