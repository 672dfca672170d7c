/**
 * docs/telegram.md "Sending": Markdown rendered to Telegram HTML (only tags Telegram accepts, balanced, everything
 * else escaped), the plain-text fallback, and the split into parts of at most 4096 UTF-16 units.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { plainText, renderTelegramHtml, splitForTelegram, type TelegramPart } from "../../src/telegram/render";

const fence = "```";
const ALLOWED = new Set(["b", "i", "s", "code", "pre", "a", "blockquote"]);

/** Fails unless `html` is what Telegram's HTML mode accepts: allowed tags, balanced, and no stray `<>&`. */
function expectValidHtml(html: string): void {
  const open: string[] = [];
  for (const m of html.matchAll(/<(\/?)([a-z]+)((?: [a-z]+="[^"<>]*")?)>|&(?:amp|lt|gt|quot);|[<>&]/g)) {
    if (m[2] === undefined) {
      expect(m[0], `a stray "${m[0]}" in ${html.slice(0, 80)}`).toMatch(/^&\w+;$/);
    } else if (m[1] === "/") {
      expect(open.pop()).toBe(m[2]);
    } else {
      expect(ALLOWED.has(m[2]), `tag <${m[2]}>`).toBe(true);
      open.push(m[2]);
    }
  }
  expect(open).toEqual([]);
}

/** Fails unless each part is non-empty, valid, and within the limit for both the HTML and the fallback. */
function expectParts(parts: TelegramPart[], limit = 4096): void {
  for (const part of parts) {
    expect(part.html.length).toBeLessThanOrEqual(limit);
    expect(part.text.length).toBeLessThanOrEqual(limit);
    expect(part.text.trim()).not.toBe("");
    expectValidHtml(part.html);
    expect(part.html).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(part.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  }
}

describe("renderTelegramHtml: each element", () => {
  it("renders **bold** and __bold__ as <b>", () => {
    expect(renderTelegramHtml("**bold** and __bold__")).toBe("<b>bold</b> and <b>bold</b>");
  });

  it("renders *italic* and _italic_ as <i>, and ~~strike~~ as <s>", () => {
    expect(renderTelegramHtml("*one* _two_ ~~three~~")).toBe("<i>one</i> <i>two</i> <s>three</s>");
  });

  it("renders inline code literally, escaped, with longer backtick runs for a backtick inside", () => {
    expect(renderTelegramHtml("run `ls -l <dir> && **x**` now")).toBe("run <code>ls -l &lt;dir&gt; &amp;&amp; **x**</code> now");
    expect(renderTelegramHtml("`` a ` b ``")).toBe("<code>a ` b</code>");
  });

  it("renders a fenced code block with a language as pre > code.language-x, content escaped and verbatim", () => {
    const md = `Try:\n${fence}python\nif a < b:\n    print("&", **kw)\n${fence}\ndone`;
    expect(renderTelegramHtml(md)).toBe('Try:\n<pre><code class="language-python">if a &lt; b:\n    print("&amp;", **kw)</code></pre>\ndone');
  });

  it("renders a fence without a language as <pre>, and ~~~ fences too", () => {
    expect(renderTelegramHtml(`${fence}\n_x_\n${fence}`)).toBe("<pre>_x_</pre>");
    expect(renderTelegramHtml("~~~sh\necho hi\n~~~")).toBe('<pre><code class="language-sh">echo hi</code></pre>');
  });

  it("keeps a shorter fence inside a longer one, and runs an unclosed fence to the end", () => {
    expect(renderTelegramHtml(`\`\`\`\`md\n${fence}\ninner\n${fence}\n\`\`\`\``)).toBe('<pre><code class="language-md">```\ninner\n```</code></pre>');
    expect(renderTelegramHtml(`a\n${fence}\nb\nc`)).toBe("a\n<pre>b\nc</pre>");
  });

  it("drops a language Telegram should not see as a class", () => {
    expect(renderTelegramHtml(`${fence}"><script>\nx\n${fence}`)).toBe("<pre>x</pre>");
  });

  it("renders [links](https://…) with the address escaped in the attribute, and <https://…> autolinks", () => {
    expect(renderTelegramHtml('[Docs](https://example.com/a?b=1&c="2")')).toBe('<a href="https://example.com/a?b=1&amp;c=&quot;2&quot;">Docs</a>');
    expect(renderTelegramHtml("see <https://example.com/x>")).toBe('see <a href="https://example.com/x">https://example.com/x</a>');
  });

  it("keeps markup inside a link's label, but not code (Telegram nests nothing in a link's code)", () => {
    expect(renderTelegramHtml("[**bold** label](https://x.org)")).toBe('<a href="https://x.org"><b>bold</b> label</a>');
    expect(renderTelegramHtml("[`npm test`](https://x.org)")).toBe('<a href="https://x.org">npm test</a>');
  });

  it("renders > quotes as one blockquote per run of quoted lines", () => {
    expect(renderTelegramHtml("> first\n> **second**\n>\nafter\n> again")).toBe(
      "<blockquote>first\n<b>second</b>\n</blockquote>\nafter\n<blockquote>again</blockquote>",
    );
  });

  it("renders - , * and + bullets as •, keeping their indentation", () => {
    expect(renderTelegramHtml("- one\n* *two*\n  + three")).toBe("• one\n• <i>two</i>\n  • three");
  });

  it("renders # headings as bold lines, without a closing sequence; #tag is not a heading", () => {
    expect(renderTelegramHtml("# Title\n### Sub *x* ##\n# C#\n#tag")).toBe("<b>Title</b>\n<b>Sub <i>x</i></b>\n<b>C#</b>\n#tag");
  });

  it("renders a rule as a line of dashes", () => {
    expect(renderTelegramHtml("a\n---\n* * *")).toBe("a\n———\n———");
  });

  it("keeps code out of bold, which Telegram does not nest", () => {
    expect(renderTelegramHtml("**run `x` now**")).toBe("<b>run </b><code>x</code><b> now</b>");
  });

  it("reads Windows line ends as newlines", () => {
    expect(renderTelegramHtml("a\r\n**b**\r\n")).toBe("a\n<b>b</b>\n");
  });

  it("leaves an address longer than 2048 characters as text", () => {
    const href = `https://e.com/${"a".repeat(2048)}`;
    expect(renderTelegramHtml(`[x](${href})`)).toBe(`[x](${href})`);
  });

  it("reads \\-escaped punctuation literally", () => {
    expect(renderTelegramHtml("\\*not italic\\* and \\`not code\\`")).toBe("*not italic* and `not code`");
  });
});

describe("renderTelegramHtml: escaping", () => {
  it("escapes <, > and & everywhere, and leaves quotes alone", () => {
    expect(renderTelegramHtml("a < b && c > d \"q\" 's'")).toBe("a &lt; b &amp;&amp; c &gt; d \"q\" 's'");
  });

  it("shows HTML in the Markdown as text, never as tags", () => {
    expect(renderTelegramHtml('<b>not bold</b> <a href="x">y</a> &amp;')).toBe('&lt;b&gt;not bold&lt;/b&gt; &lt;a href="x"&gt;y&lt;/a&gt; &amp;amp;');
  });

  it("escapes inside bold, quotes, headings and bullets", () => {
    expect(renderTelegramHtml("# a<b\n> x&y\n- **<i>**")).toBe("<b>a&lt;b</b>\n<blockquote>x&amp;y</blockquote>\n• <b>&lt;i&gt;</b>");
  });
});

describe("renderTelegramHtml: nesting", () => {
  it("nests italic in bold and bold in italic", () => {
    expect(renderTelegramHtml("**bold _italic_ bold**")).toBe("<b>bold <i>italic</i> bold</b>");
    expect(renderTelegramHtml("*it **bold** it*")).toBe("<i>it <b>bold</b> it</i>");
  });

  it("reads ***both*** as italic around bold", () => {
    expect(renderTelegramHtml("***both***")).toBe("<i><b>both</b></i>");
  });

  it("nests bold in strike and in a quote", () => {
    expect(renderTelegramHtml("> ~~**x**~~")).toBe("<blockquote><s><b>x</b></s></blockquote>");
  });
});

describe("renderTelegramHtml: broken markup stays literal", () => {
  it.each([
    ["**unclosed bold", "**unclosed bold"],
    ["_unclosed", "_unclosed"],
    ["`unclosed code", "`unclosed code"],
    ["[label](", "[label]("],
    ["[just brackets]", "[just brackets]"],
    ["[click](javascript:alert(1))", "[click](javascript:alert(1))"],
    ["[relative](notes/a.md)", "[relative](notes/a.md)"],
    ["<https://unclosed", "&lt;https://unclosed"],
    ["snake_case_name and 2 * 3 * 4", "snake_case_name and 2 * 3 * 4"],
    ["~single~ and ~~~triple~~~", "~single~ and ~~~triple~~~"],
  ])("%s", (md, html) => {
    expect(renderTelegramHtml(md)).toBe(html);
  });

  it("keeps a stray delimiter as text beside the pair it does not belong to", () => {
    expect(renderTelegramHtml("**a*")).toBe("*<i>a</i>");
  });
});

describe("renderTelegramHtml: our own texts", () => {
  it("renders the /jobs list of docs/telegram.md", () => {
    const md = [
      "**Scheduled jobs** (Europe/Berlin, now 26 Sep 14:03)",
      "`k7m2q` 💬 Call the dentist · once 27 Sep 09:00",
      "`p3xz9` 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00",
      "`w8r4t` 🔍 Price check · every 10 minutes · next 14:10 · last: failed (exit 1)",
      "`q2m8v` 💬 Stretch · every 2 hours · paused",
    ].join("\n");
    expect(renderTelegramHtml(md)).toBe(
      [
        "<b>Scheduled jobs</b> (Europe/Berlin, now 26 Sep 14:03)",
        "<code>k7m2q</code> 💬 Call the dentist · once 27 Sep 09:00",
        "<code>p3xz9</code> 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00",
        "<code>w8r4t</code> 🔍 Price check · every 10 minutes · next 14:10 · last: failed (exit 1)",
        "<code>q2m8v</code> 💬 Stretch · every 2 hours · paused",
      ].join("\n"),
    );
    expect(plainText(md)).toBe(
      [
        "Scheduled jobs (Europe/Berlin, now 26 Sep 14:03)",
        "k7m2q 💬 Call the dentist · once 27 Sep 09:00",
        "p3xz9 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00",
        "w8r4t 🔍 Price check · every 10 minutes · next 14:10 · last: failed (exit 1)",
        "q2m8v 💬 Stretch · every 2 hours · paused",
      ].join("\n"),
    );
  });

  it("renders the failure alert with its stderr lines in a code block", () => {
    const md = [
      '⚠️ Job "Price check" (w8r4t) failed (exit 1):',
      fence,
      "Traceback (most recent call last):",
      '  File "<stdin>", line 1, in <module>',
      "KeyError: 'price' & **not bold**",
      fence,
    ].join("\n");
    expect(renderTelegramHtml(md)).toBe(
      [
        '⚠️ Job "Price check" (w8r4t) failed (exit 1):',
        "<pre>Traceback (most recent call last):",
        '  File "&lt;stdin&gt;", line 1, in &lt;module&gt;',
        "KeyError: 'price' &amp; **not bold**</pre>",
      ].join("\n"),
    );
    expect(plainText(md)).toBe(
      [
        '⚠️ Job "Price check" (w8r4t) failed (exit 1):',
        "Traceback (most recent call last):",
        '  File "<stdin>", line 1, in <module>',
        "KeyError: 'price' & **not bold**",
      ].join("\n"),
    );
  });
});

describe("plainText", () => {
  it("removes markup and drops code fences, keeping their content", () => {
    expect(plainText(`# Title\n**b** *i* ~~s~~ \`c\`\n> quoted\n- item\n${fence}js\nlet a = 1;\n${fence}`)).toBe("Title\nb i s c\nquoted\n• item\nlet a = 1;");
  });

  it("keeps a link's address after its label, once when they are the same", () => {
    expect(plainText("[Docs](https://e.com/d) and <https://x.org>")).toBe("Docs (https://e.com/d) and https://x.org");
  });

  it("keeps broken markup and escapes nothing", () => {
    expect(plainText("**a & <b> [x](ftp://y)")).toBe("**a & <b> [x](ftp://y)");
  });
});

describe("splitForTelegram", () => {
  it("sends a short text as one part with its plain fallback", () => {
    expect(splitForTelegram("Hello **there** & [docs](https://e.com)")).toEqual([
      { html: 'Hello <b>there</b> &amp; <a href="https://e.com">docs</a>', text: "Hello there & docs (https://e.com)" },
    ]);
  });

  it("gives no parts for blank text, which Telegram would refuse", () => {
    expect(splitForTelegram("")).toEqual([]);
    expect(splitForTelegram(" \n\n\t")).toEqual([]);
    expect(splitForTelegram(`${fence}\n${fence}`)).toEqual([]);
  });

  it("refuses a limit too small for a code block's tags", () => {
    expect(() => splitForTelegram("x", 100)).toThrow(RangeError);
  });

  it("splits 10,000 lines on line boundaries, each part within 4096 units", () => {
    const lines = Array.from({ length: 10_000 }, (_, n) => `line ${n}: **bold** & <tag> _${"x".repeat(n % 50)}_`);
    const md = lines.join("\n");
    const parts = splitForTelegram(md);
    expect(parts.length).toBeGreaterThan(1);
    expectParts(parts);
    expect(parts.map((p) => p.text).join("\n")).toBe(plainText(md));
    // Nothing spans parts here, so the parts' HTML is the whole rendering cut at newlines.
    expect(parts.map((p) => p.html).join("\n")).toBe(renderTelegramHtml(md));
    // Greedy: a part ends only when the next line would not fit.
    const rendered = renderTelegramHtml(md).split("\n");
    let line = 0;
    for (const part of parts.slice(0, -1)) {
      line += part.html.split("\n").length;
      expect(part.html.length + 1 + rendered[line]!.length).toBeGreaterThan(4096);
    }
  });

  it("closes a long code block at the end of each part and reopens it, same language, in the next", () => {
    const code = Array.from({ length: 300 }, (_, n) => `${String(n).padStart(3, "0")} ${"<&>".repeat(12)}`);
    expect(code[0]!.length).toBe(40);
    const md = `Output:\n${fence}ts\n${code.join("\n")}\n${fence}\nDone.`;
    const parts = splitForTelegram(md);
    expect(parts.length).toBeGreaterThan(2);
    expectParts(parts);
    expect(parts[0]!.html.startsWith('Output:\n<pre><code class="language-ts">000 &lt;&amp;&gt;')).toBe(true);
    expect(parts[parts.length - 1]!.html.endsWith("</code></pre>\nDone.")).toBe(true);
    for (const part of parts.slice(1, -1)) {
      expect(part.html).toMatch(/^<pre><code class="language-ts">[^<]*<\/code><\/pre>$/);
    }
    expect(parts.map((p) => p.text).join("\n")).toBe(plainText(md));
    expect(plainText(md)).toBe(`Output:\n${code.join("\n")}\nDone.`);
  });

  it("closes and reopens a quote across parts", () => {
    const md = Array.from({ length: 1000 }, (_, n) => `> quoted line ${n}`).join("\n");
    const parts = splitForTelegram(md);
    expect(parts.length).toBeGreaterThan(1);
    expectParts(parts);
    for (const part of parts) expect(part.html).toMatch(/^<blockquote>[^<]*<\/blockquote>$/);
    expect(parts.map((p) => p.text).join("\n")).toBe(plainText(md));
  });

  it("hard-splits a 5,000-emoji line without breaking a surrogate pair", () => {
    const line = "😀".repeat(5000);
    const parts = splitForTelegram(line);
    expect(parts.map((p) => p.html.length)).toEqual([4096, 4096, 1808]);
    expectParts(parts);
    expect(parts.map((p) => p.text).join("")).toBe(line);
  });

  it("hard-splits between grapheme clusters: flags and skin tones stay whole", () => {
    // The leading "x" puts every 4096-unit cut in the middle of a cluster.
    const flags = `x${"🇩🇪🇯🇵👍🏽".repeat(1000)}`;
    const parts = splitForTelegram(flags);
    expectParts(parts);
    expect(parts.map((p) => p.text.length)).toEqual([4093, 4096, 3812]);
    for (const part of parts) expect(part.text).toMatch(/^x?(?:🇩🇪|🇯🇵|👍🏽)+$/u);
    expect(parts.map((p) => p.text).join("")).toBe(flags);
  });

  it("hard-splits Cyrillic after a space and CJK anywhere, within 4096 units", () => {
    const cyrillic = "привет мир ".repeat(1000);
    const cyrillicParts = splitForTelegram(`${cyrillic}\nконец`);
    expectParts(cyrillicParts);
    expect(cyrillicParts.length).toBe(3);
    expect(cyrillicParts[0]!.text.endsWith("мир ")).toBe(true);
    expect(cyrillicParts[1]!.text.endsWith("мир ")).toBe(true);
    // The line's fragments join with nothing; the newline before the next line is inside the last part.
    expect(cyrillicParts.map((p) => p.text).join("")).toBe(`${cyrillic}\nконец`);

    const cjk = "日本語の文章".repeat(2000);
    const cjkParts = splitForTelegram(cjk);
    expectParts(cjkParts);
    expect(cjkParts.map((p) => p.text.length)).toEqual([4096, 4096, 3808]);
    expect(cjkParts.map((p) => p.text).join("")).toBe(cjk);
  });

  it("never breaks an entity: a line of & (5 units each escaped) splits between &amp;s", () => {
    const parts = splitForTelegram("&".repeat(3000));
    expectParts(parts);
    for (const part of parts) expect(part.html).toMatch(/^(&amp;)+$/);
    expect(parts.map((p) => p.html.length)).toEqual([4095, 4095, 4095, 2715]);
    expect(parts.map((p) => p.text).join("")).toBe("&".repeat(3000));
  });

  it("closes and reopens bold around a hard split", () => {
    const md = `**${"word ".repeat(2000)}end**`;
    const parts = splitForTelegram(md);
    expect(parts.length).toBe(3);
    expectParts(parts);
    for (const part of parts) expect(part.html).toMatch(/^<b>[^<]+<\/b>$/);
    expect(parts.map((p) => p.text).join("")).toBe(plainText(md));
  });

  it("keeps a hard-split line's start in a fresh part and lets the lines after it join its end", () => {
    const md = `first\n${"a".repeat(5000)}\nlast`;
    expect(splitForTelegram(md)).toEqual([
      { html: "first", text: "first" },
      { html: "a".repeat(4096), text: "a".repeat(4096) },
      { html: `${"a".repeat(904)}\nlast`, text: `${"a".repeat(904)}\nlast` },
    ]);
  });

  it("hard-splits a long line inside a code block, each part a balanced <pre>", () => {
    const md = `${fence}\n${"x".repeat(5000)}\n${fence}`;
    const parts = splitForTelegram(md);
    expect(parts.map((p) => p.html)).toEqual([`<pre>${"x".repeat(4085)}</pre>`, `<pre>${"x".repeat(915)}</pre>`]);
    expect(parts.map((p) => p.text).join("")).toBe("x".repeat(5000));
  });

  it("reopens a link cut by a hard split and keeps its address once in the fallback", () => {
    const md = `[${"word ".repeat(1500)}end](https://e.com/x) after`;
    const parts = splitForTelegram(md);
    expect(parts.length).toBe(2);
    expectParts(parts);
    for (const part of parts) expect(part.html).toMatch(/^<a href="https:\/\/e\.com\/x">[^<]+<\/a>/);
    expect(parts[1]!.html.endsWith("end</a> after")).toBe(true);
    expect(parts.map((p) => p.text).join("")).toBe(plainText(md));
    expect(plainText(md).endsWith("end (https://e.com/x) after")).toBe(true);
  });

  it("honours a smaller limit the same way", () => {
    const md = Array.from({ length: 100 }, (_, n) => `**${n}** ${"é".repeat(n)}`).join("\n");
    const parts = splitForTelegram(md, 300);
    expectParts(parts, 300);
    expect(parts.map((p) => p.text).join("\n")).toBe(plainText(md));
  });
});

describe("loading", () => {
  const Original = Intl.Segmenter;
  const setSegmenter = (value: typeof Original) => Object.defineProperty(Intl, "Segmenter", { value, configurable: true, writable: true });
  afterEach(() => {
    setSegmenter(Original);
  });

  it("builds the grapheme segmenter on the first non-ASCII hard split, not at import", async () => {
    vi.resetModules();
    let created = 0;
    setSegmenter(
      class extends Original {
        constructor(...args: ConstructorParameters<typeof Original>) {
          super(...args);
          created++;
        }
      },
    );
    const split = await import("../../src/telegram/render");
    split.splitForTelegram("short é");
    split.splitForTelegram("x".repeat(5000));
    expect(created).toBe(0);
    split.splitForTelegram("é".repeat(5000));
    split.splitForTelegram("ü".repeat(5000));
    expect(created).toBe(1);
  });
});
