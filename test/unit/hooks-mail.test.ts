/**
 * A raw email read into the text a job wakes with (src/hooks/mail.ts), from hand-written messages
 * (test/fixtures/mail/*.eml and inline strings): the From and Subject lines as a person reads them, the plain body
 * or the HTML one as text, attachments by name and size only, the Message-ID and sender beside it; a message the
 * parser refuses still gives its text. test/unit/vendor.test.ts shows postal-mime is a module of its own.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatSize, htmlToText, readMail } from "../../src/hooks/mail";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = (name: string) => readFileSync(path.join(root, "test/fixtures/mail", name), "utf8");

describe("a mail's text", () => {
  it("is From with the sender's name, Subject, a blank line and the body, with its trailing whitespace trimmed", async () => {
    const mail = await readMail(fixture("plain.eml"));
    expect(mail.text).toBe(
      [
        "From: Ada Lovelace <Ada@Example.com>",
        "Subject: Build 1234 failed",
        "",
        'Build 1234 on main failed at step "test".',
        "",
        "  FAIL test/unit/parse.test.ts > reads a date",
        "  Expected 3, received 4",
        "",
        "-- ",
        "CI bot",
      ].join("\n"),
    );
    expect(mail.messageId).toBe("build-1234.77@ci.example.com");
    expect(mail.from).toBe("ada@example.com");
  });

  it("takes the text part of a multipart/alternative, not the HTML one", async () => {
    const mail = await readMail(fixture("alternative.eml"));
    expect(mail.text).toBe("From: Lovelace, Ada <ada@example.com>\nSubject: Deploy finished\n\nDeploy 88 finished in 42 s.\nEverything is green.");
    expect(mail.messageId).toBe("alt-1@mail.example.com");
  });

  it("reads an HTML-only mail as text: no head, style or script, blocks on lines of their own, entities decoded", async () => {
    const mail = await readMail(fixture("html-only.eml"));
    expect(mail.text).toBe(
      [
        "From: Status Page <status@example.com>",
        "Subject: Incident resolved",
        "",
        "Incident resolved",
        "",
        "The API was slow from 09:00 to 09:40 & is fine now.",
        "No data was lost.",
        "",
        "Affected:",
        "",
        "- API <v2>",
        "- Dashboard – read only",
        "",
        "Details: incident report (https://status.example.com/i/42?x=1&y=2)",
        "",
        "Café \"Z\" 's' ☺ &unknown;",
      ].join("\n"),
    );
  });

  it("decodes an encoded Subject and From name (UTF-8, B and Q), folded over two lines", async () => {
    const mail = await readMail(fixture("encoded-subject.eml"));
    expect(mail.text).toBe("From: Jürgen Müller <juergen@example.de>\nSubject: Grüße aus Köln und Übergrößen\n\nHallo!");
    expect(mail.messageId).toBeNull();
    expect(mail.from).toBe("juergen@example.de");
  });

  it("decodes a quoted-printable body with non-ASCII characters and soft line breaks; a bare address is the From", async () => {
    const mail = await readMail(fixture("quoted-printable.eml"));
    expect(mail.text).toBe(
      "From: juergen@example.de\nSubject: QP\n\nSchöne Grüße aus München, dies ist eine sehr lange Zeile, die weich umbrochen wurde.\nPreis: 5 €",
    );
  });

  it("decodes a base64 body in its charset (ISO-8859-1), its CRLF line breaks as \\n", async () => {
    const mail = await readMail(fixture("base64-latin1.eml"));
    expect(mail.text).toBe("From: juergen@example.de\nSubject: Base64\n\nGrüße aus Köln.\nZweite Zeile: 20 °C.");
  });

  it("names attachments with their sizes after the body, never their content; one without a name by its type", async () => {
    const raw = fixture("attachments.eml");
    const mail = await readMail(raw);
    expect(mail.text).toBe(
      [
        "From: CI <ci@example.com>",
        "Subject: Nightly report",
        "",
        "The nightly report is attached.",
        "",
        "Attachments:",
        "- report.pdf (12.3 KB)",
        "- unnamed (image/png, 2.0 KB)",
        "- unnamed (application/octet-stream, 512 B)",
      ].join("\n"),
    );
    expect(mail.text).not.toContain("%PDF");
    expect(mail.messageId).toBe("mixed-9@ci.example.com");
  });

  it("says (unknown), (no subject) and (no text) for a From, Subject or body the mail does not have", async () => {
    expect((await readMail("To: k7m2q9xw@hooks.example.org\n\nJust a body.\n")).text).toBe("From: (unknown)\nSubject: (no subject)\n\nJust a body.");
    expect((await readMail("From: ada@example.com\nSubject:   \n\n \n\t\n")).text).toBe("From: ada@example.com\nSubject: (no subject)\n\n(no text)");
    expect((await readMail("From: ada@example.com\nSubject: Empty\n")).text).toBe("From: ada@example.com\nSubject: Empty\n\n(no text)");
    const none = await readMail("");
    expect(none).toEqual({ text: "From: (unknown)\nSubject: (no subject)\n\n(no text)", messageId: null, from: null });
  });

  it("says (no text) before the attachments of a mail that is only attachments", async () => {
    const raw = [
      "From: ada@example.com",
      "Subject: Scan",
      'Content-Type: multipart/mixed; boundary="x"',
      "",
      "--x",
      'Content-Type: application/pdf; name="scan.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      "JVBERi0xLjQK",
      "--x--",
      "",
    ].join("\n");
    expect((await readMail(raw)).text).toBe("From: ada@example.com\nSubject: Scan\n\n(no text)\n\nAttachments:\n- scan.pdf (9 B)");
  });

  it("reads a message with CRLF line endings as the same text as with LF", async () => {
    const lf = fixture("plain.eml");
    const crlf = lf.replace(/\n/g, "\r\n");
    expect(crlf).toContain("\r\n");
    const mail = await readMail(crlf);
    expect(mail.text).not.toContain("\r");
    expect(mail).toEqual(await readMail(lf));
  });

  it("drops blank lines before the body and turns a bare CR into a line break", async () => {
    expect((await readMail("Subject: x\n\n\n\n  indented\rnext\n")).text).toBe("From: (unknown)\nSubject: x\n\n  indented\nnext");
  });

  it("keeps the From and Subject on one line each when a decoded word or a name holds a line break", async () => {
    const raw = `From: =?UTF-8?B?${btoa("Ada\nSubject: forged")}?= <ada@example.com>\nSubject: =?UTF-8?Q?Hi=0D=0A=0D=0AIgnore_this?=\n\nBody\n`;
    expect((await readMail(raw)).text).toBe("From: Ada Subject: forged <ada@example.com>\nSubject: Hi Ignore this\n\nBody");
  });

  it("takes a group's first member as the sender", async () => {
    const mail = await readMail("From: Team: Ada <ada@example.com>, bob@example.com;\nSubject: Hi\n\nBody\n");
    expect(mail.text).toBe("From: Ada <ada@example.com>\nSubject: Hi\n\nBody");
    expect(mail.from).toBe("ada@example.com");
  });
});

describe("a mail's Message-ID and sender", () => {
  it("are the Message-ID without angle brackets and whitespace, and the bare From address in lower case", async () => {
    const mail = await readMail('Message-ID:   <CA+x.Y_z@Mail.Example.com>  \nFrom: "Ada" <Ada.Lovelace@Example.COM>\n\nHi\n');
    expect(mail.messageId).toBe("CA+x.Y_z@Mail.Example.com");
    expect(mail.from).toBe("ada.lovelace@example.com");
  });

  it("are null when the mail has neither", async () => {
    const mail = await readMail("Subject: x\n\nHi\n");
    expect(mail.messageId).toBeNull();
    expect(mail.from).toBeNull();
  });

  it("keep a Message-ID written without brackets as it is", async () => {
    expect((await readMail("Message-ID: abc.123@host\n\nHi\n")).messageId).toBe("abc.123@host");
  });
});

describe("a mail's raw input", () => {
  it("reads the same from a string, a Uint8Array (also a view into a larger buffer) and an ArrayBuffer", async () => {
    const text = fixture("encoded-subject.eml");
    const bytes = new TextEncoder().encode(text);
    const padded = new Uint8Array(bytes.byteLength + 20);
    padded.set(bytes, 10);
    const buffer = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(buffer).set(bytes);
    const expected = await readMail(text);
    expect(expected.text).toBe("From: Jürgen Müller <juergen@example.de>\nSubject: Grüße aus Köln und Übergrößen\n\nHallo!");
    expect(await readMail(bytes)).toEqual(expected);
    expect(await readMail(padded.subarray(10, 10 + bytes.byteLength))).toEqual(expected);
    expect(await readMail(buffer)).toEqual(expected);
  });
});

describe("a message the parser refuses", () => {
  /** Multiparts nested past postal-mime's limit of 256, which makes it throw rather than parse. */
  function deeplyNested(): string {
    let raw = "From: ada@example.com\nSubject: Deep\nContent-Type: multipart/mixed; boundary=b0\n\n";
    for (let depth = 1; depth <= 300; depth++) raw += `--b${depth - 1}\nContent-Type: multipart/mixed; boundary=b${depth}\n\n`;
    return `${raw}innermost\n`;
  }

  it("does not throw: its text after the header block's blank line is the body, under an unknown From and Subject", async () => {
    const raw = deeplyNested();
    const mail = await readMail(raw);
    const body = raw.slice(raw.indexOf("\n\n") + 2).trimEnd();
    expect(mail).toEqual({ text: `From: (unknown)\nSubject: (no subject)\n\n${body}`, messageId: null, from: null });
    expect(mail.text.startsWith("From: (unknown)\nSubject: (no subject)\n\n--b0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\n")).toBe(true);
    expect(mail.text.endsWith("boundary=b300\n\ninnermost")).toBe(true);
  });

  it("is read the same from bytes, with CRLF line endings", async () => {
    const raw = deeplyNested();
    const fromBytes = await readMail(new TextEncoder().encode(raw.replace(/\n/g, "\r\n")));
    expect(fromBytes).toEqual(await readMail(raw));
  });
});

describe("HTML as text", () => {
  it("breaks lines at <br> and blocks, puts a blank line around paragraphs and headings, and `- ` before list items", () => {
    const html = "<h2>Title</h2><p>One<br>two<br/><br>three</p><div>a</div><div>b</div><ol><li>x</li>\n  <li>y</li></ol><p>end</p>";
    expect(htmlToText(html)).toBe("Title\n\nOne\ntwo\n\nthree\n\na\nb\n\n- x\n- y\n\nend");
  });

  it("drops script, style and head with their content, and comments, even unclosed at the end", () => {
    expect(htmlToText("<head><title>T</title><meta x></head><STYLE>b{}</STYLE>A<script>x()</script>B<!-- hidden -->C<script>never")).toBe("ABC");
    // An unclosed head ends where the body starts.
    expect(htmlToText("<html><head><title>T</title><body><p>Hi</p>")).toBe("Hi");
  });

  it("decodes entities once: named, decimal and hex, an invalid one as U+FFFD, an unknown one as written", () => {
    expect(htmlToText("&amp;lt; &lt;b&gt; &quot;q&quot; &#39;s&#39; a&nbsp;&nbsp;b &#228;&#xE4;&#XC4; &Auml;&szlig; &#0; &#xD800; &bogus; & ;")).toBe(
      "&lt; <b> \"q\" 's' a b ääÄ Äß \ufffd \ufffd &bogus; & ;",
    );
  });

  it("collapses runs of spaces and of blank lines, and trims", () => {
    expect(htmlToText("  \n  a   b\t\tc \n\n  <p></p><p></p><br><br><br><br>d  \n")).toBe("a b c\n\nd");
  });

  it("keeps a `<` that starts no tag, skips doctypes and reads a `>` inside a quoted attribute as part of the tag", () => {
    expect(htmlToText('<!DOCTYPE html><?xml version="1.0"?>1 < 2 <span title="a>b">and</span> 3 > 2')).toBe("1 < 2 and 3 > 2");
  });

  it("gives a link's address after its text, unless the text is the address; not for other schemes", () => {
    expect(htmlToText('<a href="https://x.example/a?b=1&amp;c=2">Open</a> <a href="https://x.example">https://x.example</a>')).toBe(
      "Open (https://x.example/a?b=1&c=2) https://x.example",
    );
    expect(htmlToText("<a href='mailto:ada@example.com'>ada@example.com</a>, <a href=mailto:bob@example.com>Bob</a>")).toBe(
      "ada@example.com, Bob (bob@example.com)",
    );
    expect(htmlToText('<a href="javascript:alert(1)">Click</a> <a href="#top">Top</a> <a>None</a>')).toBe("Click Top None");
  });

  it("separates table cells by a space and rows by a line", () => {
    expect(htmlToText("<table><tr><th>Job</th><th>Status</th></tr><tr><td>test</td><td>failed</td></tr></table>")).toBe("Job Status\ntest failed");
  });

  it("reads long hostile bodies in linear time", () => {
    const started = Date.now();
    expect(htmlToText("<a href=".repeat(50_000))).toBe("");
    expect(htmlToText(`x${"<!--".repeat(50_000)}`)).toBe("x");
    expect(htmlToText(`x${"<script>".repeat(50_000)}`)).toBe("x");
    expect(htmlToText(`x${"<p title='".repeat(50_000)}`)).toBe("x");
    expect(htmlToText(`${"<a href=https://x.example>a".repeat(50_000)}`)).toBe("a (https://x.example)".repeat(50_000));
    expect(htmlToText(`${"< ".repeat(50_000)}`)).toBe("<".repeat(50_000).split("").join(" "));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("a size", () => {
  it("is B under 1024, then KB and MB with one decimal under 100 and whole from 100, the next unit from 1024", () => {
    const cases: [number, string][] = [
      [0, "0 B"],
      [512, "512 B"],
      [1023, "1023 B"],
      [1024, "1.0 KB"],
      [2048, "2.0 KB"],
      [12_595, "12.3 KB"],
      [102_348, "99.9 KB"],
      [102_350, "100 KB"],
      [1_047_552, "1023 KB"],
      [1_048_064, "1.0 MB"],
      [5 * 1024 * 1024, "5.0 MB"],
      [150 * 1024 * 1024, "150 MB"],
      [3 * 1024 ** 3, "3.0 GB"],
    ];
    for (const [bytes, shown] of cases) expect(formatSize(bytes)).toBe(shown);
  });
});
