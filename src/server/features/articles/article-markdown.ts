import { createRequire } from "node:module";
import type MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import type sanitizeHtml from "sanitize-html";
import { attachmentIdOfPreviewPath } from "#shared/attachments/attachment.schemas.ts";

// Loaded on first use, not at start: together they cost about a tenth of the server's start-up (decision
// 044), and only the knowledge base needs them. Both are CommonJS, so a synchronous require keeps the
// functions below synchronous.
const requireLazily = createRequire(import.meta.url);
let loaded: { markdown: InstanceType<typeof MarkdownIt>; sanitize: typeof sanitizeHtml } | null = null;
function renderer() {
  if (loaded) return loaded;
  const MarkdownItClass = requireLazily("markdown-it") as typeof MarkdownIt;
  const markdown = new MarkdownItClass({ html: false, linkify: true, typographer: false });
  configureLinks(markdown);
  loaded = { markdown, sanitize: requireLazily("sanitize-html") as typeof sanitizeHtml };
  return loaded;
}

// Raw HTML in the Markdown is shown as text (html: false); markdown-it already refuses javascript:,
// vbscript: and data: links (other than images). sanitize-html then keeps only the tags and attributes
// below, so even a parser bug cannot let a script, an event handler or a dangerous URL through.
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

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "pre",
    "code",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "s",
    "a",
    "img",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "span",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel", "class"],
    img: ["src", "alt", "title"],
    span: ["class", "aria-hidden"],
    th: ["style"],
    td: ["style"],
    ol: ["start"],
  },
  allowedStyles: { "*": { "text-align": [/^(left|right|center)$/] } },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  allowedClasses: { a: ["external-link"], span: ["external-marker", "sr-only"] },
  // Whatever markdown-it left, a link that points outside gets the same protections here too.
  transformTags: {
    // Any other same-site address (an API route, a page) is no image: the img keeps only its alt text.
    img: (tagName, attribs) => {
      if (isAllowedImageSource(attribs.src ?? "")) return { tagName, attribs };
      const { src: _dropped, ...rest } = attribs;
      return { tagName, attribs: rest };
    },
    a: (tagName, attribs) => {
      const href = attribs.href ?? "";
      if (!isExternal(href)) return { tagName, attribs };
      return {
        tagName,
        attribs: {
          ...attribs,
          target: "_blank",
          rel: "noopener noreferrer nofollow",
          class: "external-link",
        },
      };
    },
  },
};

/** An article's Markdown as safe HTML: no script, no event-handler attributes, no javascript: links. */
export function renderArticleMarkdown(source: string): string {
  const { markdown, sanitize } = renderer();
  return sanitize(markdown.render(source, {}), sanitizeOptions);
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
