// @vitest-environment jsdom
// jsdom's HTML parser reads the sanitised HTML the way a browser does (below); the code under test needs
// no DOM.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { articleImageIds, renderArticleMarkdown, sanitizeArticleHtml } from "./article-markdown.ts";

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

  it("shows the classic payloads typed into the Markdown as text, and only as text", () => {
    const payloads = [
      '<svg onload="alert(1)"><circle r="1"/></svg>',
      "<style>body { background: url(javascript:alert(1)) }</style>",
      '<iframe src="javascript:alert(1)"></iframe>',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<img srcset="javascript:alert(1) 1x" src="x.png">',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    ];
    for (const payload of payloads) {
      const html = renderArticleMarkdown(`Before ${payload} after`);
      expect(elementsAsABrowserReads(html), payload).toEqual([{ tag: "p", attributes: {} }]);
      expect(textAsABrowserReads(html).trim(), payload).toBe(`Before ${payload} after`);
    }
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

// The second line of defence on its own: the raw HTML markdown-it never produces (it shows raw HTML as
// text), as if a parser bug let it through. Each result is read the way the article page inserts it
// (innerHTML of an element, jsdom's HTML parser), so what is checked is what a browser would build.
describe("article HTML sanitising", () => {
  it("drops script, style, iframe, object and embed elements with their content", () => {
    for (const payload of [
      "<script>alert(1)</script>",
      "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
      "<style>body { background: url(javascript:alert(1)) }</style>",
      '<iframe src="javascript:alert(1)"></iframe>',
      '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
      '<object data="javascript:alert(1)"></object>',
      '<embed src="javascript:alert(1)">',
      "<template><img src=x onerror=alert(1)></template>",
      "<textarea><script>alert(1)</script></textarea>",
    ]) {
      const html = sanitizeArticleHtml(`<p>kept</p>${payload}`);
      expect(elementsAsABrowserReads(html), payload).toEqual([{ tag: "p", attributes: {} }]);
      expect(textAsABrowserReads(html), payload).toBe("kept");
    }
  });

  it("drops every event-handler attribute, also on the tags an article may show", () => {
    const html = sanitizeArticleHtml(
      '<p onclick="alert(1)">p</p><img src="https://a.example/x.png" onerror="alert(2)" alt="x">' +
        '<a href="/kb" onmouseover="alert(3)" ONFOCUS="alert(4)">a</a><svg onload="alert(5)">s</svg>' +
        '<body onload="alert(6)"><h1 id="x" style="color:red" onanimationstart="alert(7)">h</h1>',
    );
    expectOnlyAllowedMarkup(html);
    expect(elementsAsABrowserReads(html)).toEqual([
      { tag: "p", attributes: {} },
      { tag: "img", attributes: { src: "https://a.example/x.png", alt: "x" } },
      { tag: "a", attributes: { href: "/kb" } },
      { tag: "h1", attributes: {} },
    ]);
  });

  it("drops javascript:, vbscript:, data: and other-scheme links however they are spelled", () => {
    for (const href of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java&#x09;script:alert(1)",
      "java&NewLine;script:alert(1)",
      "&#1;javascript:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript&colon;alert(1)",
      "javascript&#58;alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "file:///etc/passwd",
      "//evil.example/",
      "/\\evil.example/",
    ]) {
      const html = sanitizeArticleHtml(`<a href="${href}">click</a>`);
      expectOnlyAllowedMarkup(html);
      expect(elementsAsABrowserReads(html), href).toEqual([{ tag: "a", attributes: {} }]);
    }
    const kept = sanitizeArticleHtml(
      '<a href="/kb/vpn-1">a</a><a href="mailto:it@example.com">b</a><a href="HTTPS://vendor.example/">c</a>',
    );
    expect(elementsAsABrowserReads(kept).map((element) => element.attributes.href)).toEqual([
      "/kb/vpn-1",
      "mailto:it@example.com",
      "HTTPS://vendor.example/",
    ]);
  });

  it("marks a link to another site as external however its address is spaced or split by tabs", () => {
    for (const href of [
      " https://evil.example/",
      "ht&#9;tps://evil.example/",
      "https:&#10;//evil.example/",
    ]) {
      const html = sanitizeArticleHtml(`<a href="${href}">away</a>`);
      expectOnlyAllowedMarkup(html);
      expect(elementsAsABrowserReads(html)[0]?.attributes, href).toMatchObject({
        target: "_blank",
        rel: "noopener noreferrer nofollow",
        class: "external-link",
      });
    }
  });

  it("keeps neither svg nor MathML, and no markup hidden in comments, CDATA or mutated by the parser", () => {
    for (const payload of [
      '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
      "<svg><script>alert(1)</script></svg>",
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
      '<title><img src=x onerror="alert(1)"></title>',
      "<!--<img src=x onerror=alert(1)>-->",
      "<![CDATA[<img src=x onerror=alert(1)>]]>",
      '<!--><img src=x onerror="alert(1)">-->',
      "<xmp><img src=x onerror=alert(1)></xmp>",
    ]) {
      const html = sanitizeArticleHtml(payload);
      expectOnlyAllowedMarkup(html);
      expect(html, payload).not.toMatch(/<(svg|math|script|style|noscript|title|xmp)\b|<img[^>]*\son/i);
    }
  });

  it("keeps no srcset, and no style but a table column's alignment", () => {
    const html = sanitizeArticleHtml(
      '<img srcset="javascript:alert(1) 1x, https://a.example/x.png 2x" src="https://a.example/x.png" alt="a">' +
        '<p style="background: url(javascript:alert(1))">p</p>' +
        '<table><tr><td style="text-align: center; background: url(javascript:alert(1))">c</td>' +
        '<th style="text-align:right">r</th><td style="expression(alert(1))">e</td></tr></table>',
    );
    expectOnlyAllowedMarkup(html);
    expect(elementsAsABrowserReads(html)).toEqual([
      { tag: "img", attributes: { src: "https://a.example/x.png", alt: "a" } },
      { tag: "p", attributes: {} },
      { tag: "table", attributes: {} },
      { tag: "tbody", attributes: {} },
      { tag: "tr", attributes: {} },
      { tag: "td", attributes: { style: "text-align:center" } },
      { tag: "th", attributes: { style: "text-align:right" } },
      { tag: "td", attributes: {} },
    ]);
  });

  it("keeps what an attribute or a text holds inside it: no way out of the quotes or into a tag", () => {
    const html = sanitizeArticleHtml(
      '<a href="/kb" title="&quot;><script>alert(1)</script>">a</a>' +
        '<img src="https://a.example/x.png" alt=\'"onerror="alert(1)\'>' +
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt;</p>",
    );
    expectOnlyAllowedMarkup(html);
    expect(elementsAsABrowserReads(html)).toEqual([
      { tag: "a", attributes: { href: "/kb", title: '"><script>alert(1)</script>' } },
      { tag: "img", attributes: { src: "https://a.example/x.png", alt: '"onerror="alert(1)' } },
      { tag: "p", attributes: {} },
    ]);
    expect(textAsABrowserReads(html)).toBe("a<script>alert(1)</script> &lt;b&gt;");
  });

  it("lets nothing else through, whatever mix of HTML it is given", () => {
    const pieces = fc.constantFrom(
      ...[
        "<",
        ">",
        "</",
        "/>",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        '"',
        "'",
        "=",
        " ",
        "\t",
        "\n",
        "&",
        "&#",
        "x",
        ";",
      ],
      ...[
        "a",
        "img",
        "svg",
        "math",
        "script",
        "style",
        "iframe",
        "noscript",
        "title",
        "textarea",
        "table",
        "td",
      ],
      ...[
        "href",
        "src",
        "srcset",
        "style",
        "onerror",
        "onload",
        "class",
        "javascript:",
        "&#106;",
        "&colon;",
        "//",
      ],
      ...[
        '<a href="',
        '<img src="',
        "<svg><",
        "<math><mtext><",
        "alert(1)",
        "https://a.example/x.png",
        "sr-only",
      ],
    );
    const html = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(html, (input) => {
        expectOnlyAllowedMarkup(sanitizeArticleHtml(input));
      }),
      { numRuns: 400 },
    );
  });
});

/** The HTML put into the page as the article page does (innerHTML of an element). */
function insertedAsThePageDoes(html: string) {
  const container = document.createElement("div");
  container.innerHTML = html;
  return container;
}

function elementsAsABrowserReads(html: string) {
  return [...insertedAsThePageDoes(html).querySelectorAll("*")].map((element) => ({
    tag: element.localName,
    attributes: Object.fromEntries(
      [...element.attributes].map((attribute) => [attribute.name, attribute.value]),
    ),
  }));
}

const textAsABrowserReads = (html: string) => insertedAsThePageDoes(html).textContent;

/** What an article may show (decision 030), stated here apart from the code that enforces it. */
const mayShow: Record<string, string[]> = {
  ...Object.fromEntries(
    [
      ..."h1 h2 h3 h4 h5 h6 p br hr blockquote pre code ul li strong em s".split(" "),
      ..."table thead tbody tr".split(" "),
    ].map((tag) => [tag, []]),
  ),
  ol: ["start"],
  a: ["href", "title", "target", "rel", "class"],
  img: ["src", "alt", "title"],
  span: ["class", "aria-hidden"],
  th: ["style"],
  td: ["style"],
};

function expectOnlyAllowedMarkup(html: string) {
  for (const { tag, attributes } of elementsAsABrowserReads(html)) {
    expect(Object.keys(mayShow), `<${tag}> in ${html}`).toContain(tag);
    for (const [name, value] of Object.entries(attributes)) {
      expect(mayShow[tag], `${name} on <${tag}> in ${html}`).toContain(name);
      // Resolved by the URL rules browsers use, against an article's address.
      const url =
        name === "href" || name === "src" ? new URL(value, "https://helpdesk.example/kb/vpn-1") : null;
      if (name === "href") {
        expect(["http:", "https:", "mailto:"], html).toContain(url!.protocol);
        // A link that leaves the site opens apart, marked as such (decision 030).
        if (url!.origin !== "https://helpdesk.example") {
          expect(attributes, html).toMatchObject({ target: "_blank", rel: "noopener noreferrer nofollow" });
        }
      }
      if (name === "src") expect(url!.protocol, html).toBe("https:");
      if (name === "style") expect(value, html).toMatch(/^text-align:(left|right|center)$/);
      if (name === "class") expect(value, html).toMatch(/^(external-link|external-marker|sr-only)$/);
    }
  }
}
