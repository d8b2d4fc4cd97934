import { describe, expect, it } from "vitest";
import { articleImageIds, renderArticleMarkdown } from "./article-markdown.ts";

/** Every attribute name of every tag in the HTML (values are quoted: what is inside them is not a name). */
function attributeNames(html: string): string[] {
  const names: string[] = [];
  for (const [, attributes = ""] of html.matchAll(/<\w+((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    for (const [, name] of attributes.matchAll(/\s+([\w-]+)(?:="[^"]*")?/g)) names.push(name!.toLowerCase());
  }
  return names;
}

describe("article Markdown", () => {
  it("renders headings, lists, code and tables", () => {
    const html = renderArticleMarkdown(
      "# VPN\n\n- one\n- **two**\n\n`code`\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );
    expect(html).toContain("<h1>VPN</h1>");
    expect(html).toContain("<li><strong>two</strong></li>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<td>1</td>");
  });

  it("shows raw HTML as text: no script element, no event handler", () => {
    const html = renderArticleMarkdown(
      'Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b onclick="x()">b</b>',
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<b /i);
    expect(attributeNames(html).filter((name) => name.startsWith("on"))).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("drops event handlers even where an attribute could carry one", () => {
    const html = renderArticleMarkdown('![pic](https://example.com/a.png "t\\" onerror=\\"alert(1)")');
    expect(html).toContain("<img");
    expect(attributeNames(html).filter((name) => name.startsWith("on"))).toEqual([]);
  });

  it("refuses javascript:, vbscript: and data: links, however they are spelled", () => {
    for (const href of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "vbscript:x",
      "data:text/html,<script>alert(1)</script>",
      "&#106;avascript:alert(1)",
    ]) {
      const html = renderArticleMarkdown(`[click](${href}) <${href}>`);
      expect(html, href).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
      expect(html, href).not.toMatch(/<script/i);
    }
  });

  it("marks external links, opens them apart and keeps our own links as they are", () => {
    const html = renderArticleMarkdown("[vendor](https://vendor.example/guide) and [ticket list](/tickets)");
    expect(html).toContain(
      '<a href="https://vendor.example/guide" target="_blank" rel="noopener noreferrer nofollow" class="external-link">vendor<span class="external-marker" aria-hidden="true"> ↗</span><span class="sr-only"> (opens another site)</span></a>',
    );
    expect(html).toContain('<a href="/tickets">ticket list</a>');
  });

  it("turns a bare address into a marked external link", () => {
    expect(renderArticleMarkdown("See https://status.example.com now")).toContain(
      'rel="noopener noreferrer nofollow"',
    );
  });

  it("shows images only from https or an attachment's preview address; any other address loses its src", () => {
    const preview = "/api/attachments/ATT0M5ABCDEF12345678/preview";
    expect(renderArticleMarkdown(`![VPN](${preview})`)).toBe(`<p><img src="${preview}" alt="VPN" /></p>\n`);
    expect(renderArticleMarkdown("![VPN](https://vendor.example/vpn.png)")).toContain(
      '<img src="https://vendor.example/vpn.png" alt="VPN" />',
    );
    for (const src of [
      "http://vendor.example/vpn.png",
      "//evil.example/a.png",
      "/\\evil.example/a.png",
      "data:image/png;base64,iVBORw0KGgo=",
      "/api/auth/sign-out",
      "/api/attachments/ATT0M5ABCDEF12345678",
      `${preview}?download=1`,
      "/api/attachments/../tickets/preview",
      "/api/attachments/att0m5abcdef12345678/preview",
      "relative.png",
    ]) {
      const html = renderArticleMarkdown(`![pic](<${src}>)`);
      expect(html, src).toBe('<p><img alt="pic" /></p>\n');
    }
  });

  it("finds the attachments the Markdown shows as images, each once, and not those it only links to", () => {
    const a = "ATT0M5ABCDEF12345678";
    const b = "ATT0M5ABCDEF1234567B";
    const c = "ATT0M5ABCDEF1234567C";
    const d = "ATT0M5ABCDEF1234567D";
    const source = [
      `![one](/api/attachments/${a}/preview) and again ![one](/api/attachments/${a}/preview)`,
      `![by reference][shot]`,
      `[a link, not an image](/api/attachments/${c}/preview)`,
      `\`![in code](/api/attachments/${d}/preview)\``,
      `![download address](/api/attachments/${d})`,
      `[shot]: /api/attachments/${b}/preview`,
    ].join("\n\n");
    expect(articleImageIds(source)).toEqual([a, b]);
  });
});
