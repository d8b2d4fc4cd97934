import { createRequire } from "node:module";
import type * as Htmlparser2 from "htmlparser2";
import type MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import { attachmentIdOfPreviewPath } from "#shared/attachments/attachment.schemas.ts";

// Loaded on first use, not at start: together they cost about a tenth of the server's start-up (decision
// 044), and only the knowledge base needs them. markdown-it is CommonJS and htmlparser2 an ES module without
// top-level await, which Node 20.19 and later require() as well: the functions below stay synchronous.
const requireLazily = createRequire(import.meta.url);
let loaded: {
  markdown: InstanceType<typeof MarkdownIt>;
  htmlparser: Pick<typeof Htmlparser2, "parseDocument" | "ElementType">;
} | null = null;
function renderer() {
  if (loaded) return loaded;
  const MarkdownItClass = requireLazily("markdown-it") as typeof MarkdownIt;
  const markdown = new MarkdownItClass({ html: false, linkify: true, typographer: false });
  configureLinks(markdown);
  loaded = { markdown, htmlparser: requireLazily("htmlparser2") as typeof Htmlparser2 };
  return loaded;
}

// Raw HTML in the Markdown is shown as text (html: false); markdown-it already refuses javascript:,
// vbscript: and data: links (other than images). sanitizeArticleHtml then keeps only the tags and
// attributes below, so even a parser bug cannot let a script, an event handler or a dangerous URL through.
function configureLinks(markdown: InstanceType<typeof MarkdownIt>) {
  const defaultLinkOpen = markdown.renderer.rules.link_open;
  markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const href = String(token.attrGet("href") ?? "");
    if (isExternal(href)) {
      token.attrSet("target", "_blank");
      token.attrSet("rel", "noopener noreferrer nofollow");
      token.attrJoin("class", "external-link");
      (env as { externalDepth?: number }).externalDepth = 1;
    }
    return defaultLinkOpen
      ? defaultLinkOpen(tokens, index, options, env, self)
      : self.renderToken(tokens, index, options);
  };
  markdown.renderer.rules.link_close = (tokens, index, options, env, self) => {
    const state = env as { externalDepth?: number };
    const marker = state.externalDepth
      ? '<span class="external-marker" aria-hidden="true"> ↗</span><span class="sr-only"> (opens another site)</span>'
      : "";
    state.externalDepth = 0;
    return `${marker}${self.renderToken(tokens, index, options)}`;
  };
}

/** An image shows only from an https address or as one of our attachments' previews (decision 030). */
const isAllowedImageSource = (src: string) => /^https:/i.test(src) || attachmentIdOfPreviewPath(src) !== null;

const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//");

/** The tags an article may show, each with the attributes it may keep; nothing else gets through. */
const allowedTags = new Map<string, ReadonlySet<string>>(
  Object.entries({
    h1: [],
    h2: [],
    h3: [],
    h4: [],
    h5: [],
    h6: [],
    p: [],
    br: [],
    hr: [],
    blockquote: [],
    pre: [],
    code: [],
    ul: [],
    ol: ["start"],
    li: [],
    strong: [],
    em: [],
    s: [],
    a: ["href", "title", "target", "rel", "class"],
    img: ["src", "alt", "title"],
    table: [],
    thead: [],
    tbody: [],
    tr: [],
    th: ["style"],
    td: ["style"],
    span: ["class", "aria-hidden"],
  }).map(([tag, attributes]) => [tag, new Set(attributes)]),
);
const voidTags = new Set(["br", "hr", "img"]);
/** Their content is markup, code or a form's value, not the article's text: it goes with them. */
const droppedWithContent = new Set([
  "template",
  "noscript",
  "iframe",
  "object",
  "textarea",
  "select",
  "option",
  "title",
]);
const allowedClasses = new Map([
  ["a", new Set(["external-link"])],
  ["span", new Set(["external-marker", "sr-only"])],
]);

type HtmlNode = ReturnType<typeof Htmlparser2.parseDocument>["children"][number];

/**
 * The second line of defence (decision 030): HTML rebuilt from an allowlist. htmlparser2 decodes every
 * entity; each kept tag, attribute and text is then written out afresh and escaped, so nothing of the input
 * reaches the page as markup unless it is named here. Exported for its tests, which feed it the raw HTML
 * markdown-it never lets through.
 */
export function sanitizeArticleHtml(html: string): string {
  const { parseDocument, ElementType } = renderer().htmlparser;
  const nodes = (children: readonly HtmlNode[]): string => children.map(node).join("");
  const node = (item: HtmlNode): string => {
    if (item.type === ElementType.Text) return escapeText(item.data);
    // Comments, doctypes and CDATA go, and so do <script> and <style> with their content: htmlparser2 gives
    // those two elements types of their own.
    if (item.type !== ElementType.Tag) return "";
    const allowed = allowedTags.get(item.name);
    if (!allowed) return droppedWithContent.has(item.name) ? "" : nodes(item.children);
    const attributes = [...keptAttributes(item.name, item.attribs, allowed)]
      .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
      .join("");
    if (voidTags.has(item.name)) return `<${item.name}${attributes} />`;
    return `<${item.name}${attributes}>${nodes(item.children)}</${item.name}>`;
  };
  return nodes(parseDocument(html).children);
}

function keptAttributes(tag: string, attribs: Record<string, string>, allowed: ReadonlySet<string>) {
  const kept = new Map<string, string>();
  for (const [name, value] of Object.entries(attribs)) {
    const safe = allowed.has(name) ? safeAttributeValue(tag, name, value) : null;
    // An empty alt says the image is decoration; any other empty attribute says nothing.
    if (safe !== null && (safe !== "" || name === "alt")) kept.set(name, safe);
  }
  // Whatever markdown-it left, a link that points outside gets the same protections here too.
  const href = kept.get("href");
  if (href !== undefined && isExternal(addressAsBrowsersRead(href))) {
    kept.set("target", "_blank");
    kept.set("rel", "noopener noreferrer nofollow");
    kept.set("class", "external-link");
  }
  return kept;
}

function safeAttributeValue(tag: string, name: string, value: string): string | null {
  if (name === "href") return isAllowedLink(value) ? value : null;
  // Any other same-site address (an API route, a page) is no image: the img keeps only its alt text.
  if (name === "src") return isAllowedImageSource(value) ? value : null;
  // markdown-it aligns table columns with this one declaration; any other is dropped.
  if (name === "style") {
    const alignments = value
      .split(";")
      .map((rule) => /^\s*text-align\s*:\s*(left|right|center)\s*$/.exec(rule));
    const alignment = alignments.find((match) => match !== null)?.[1];
    return alignment ? `text-align:${alignment}` : null;
  }
  if (name === "class") {
    const classes = allowedClasses.get(tag);
    return value
      .split(/\s+/)
      .filter((className) => classes?.has(className))
      .join(" ");
  }
  return value;
}

/**
 * Browsers ignore tabs and line breaks anywhere in an address, and control characters and spaces around it
 * ("java\tscript:"): the address is judged with every such character and space removed, which reads a
 * scheme wherever a browser could, and sometimes where it would not (stricter, never looser).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const addressAsBrowsersRead = (href: string) => href.replace(/[\u0000-\u0020]+/g, "");

/** A link to a page of ours, or to another site over http, https or mailto; "//host" and "/\\host" lead to
 * another site with no scheme at all. */
function isAllowedLink(href: string): boolean {
  const compact = addressAsBrowsersRead(href);
  if (/^[/\\]{2}/.test(compact)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https" || scheme === "mailto";
}

const escapeText = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const escapeAttribute = (value: string) => escapeText(value).replaceAll('"', "&quot;");

/** An article's Markdown as safe HTML: no script, no event-handler attributes, no javascript: links. */
export function renderArticleMarkdown(source: string): string {
  return sanitizeArticleHtml(renderer().markdown.render(source, {}));
}

function* imageSources(tokens: Token[]): Generator<string> {
  for (const token of tokens) {
    if (token.type === "image") yield String(token.attrGet("src") ?? "");
    if (token.children) yield* imageSources(token.children);
  }
}

/** The ids of the attachments the Markdown shows as images (by their preview address), each once. */
export function articleImageIds(source: string): string[] {
  const ids = [...imageSources(renderer().markdown.parse(source, {}))].map(attachmentIdOfPreviewPath);
  return [...new Set(ids.filter((id) => id !== null))];
}
