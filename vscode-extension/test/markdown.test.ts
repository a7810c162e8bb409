/** The Markdown renderer: what it renders, and that agent text can never become markup. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeHtml, renderInline, renderMarkdown, safeHref } from "../src/core/markdown";

test("HTML in the source stays text", () => {
  const html = renderMarkdown('<script>alert(1)</script> <img src=x onerror="alert(1)">');
  assert.ok(!html.includes("<script"), html);
  assert.ok(!html.includes("<img"), html);
  assert.ok(html.includes("&lt;script&gt;"), html);
  assert.equal(escapeHtml(`&<>"'`), "&amp;&lt;&gt;&quot;&#39;");
});

test("only safe link targets become links", () => {
  assert.equal(safeHref("https://x.org/a"), "https://x.org/a");
  assert.equal(safeHref("src/a.py"), "src/a.py");
  assert.equal(safeHref("javascript:alert(1)"), null);
  assert.equal(safeHref("JaVaScRiPt:alert(1)"), null);
  assert.equal(safeHref("data:text/html,x"), null);
  assert.equal(safeHref("vscode:command"), null);
  assert.equal(renderInline("[x](javascript:alert(1))"), "[x](javascript:alert(1))");
  assert.equal(
    renderInline("[docs](https://a.org/x_y_z)"),
    '<a href="https://a.org/x_y_z" title="https://a.org/x_y_z">docs</a>',
  );
  assert.equal(
    renderInline('[q](https://a.org/?a=1&b="2")'),
    '<a href="https://a.org/?a=1&amp;b=&quot;2&quot;" title="https://a.org/?a=1&amp;b=&quot;2&quot;">q</a>',
  );
});

test("attribute injection through a link target is impossible", () => {
  const html = renderInline('[x](https://a.org/"onmouseover="alert(1))');
  assert.ok(!/<a [^>]*onmouseover/.test(html), html);
});

test("inline markup", () => {
  assert.equal(
    renderInline("**b** *i* _j_ ~~s~~ `c*d*`"),
    "<strong>b</strong> <em>i</em> <em>j</em> <del>s</del> <code>c*d*</code>",
  );
  assert.equal(renderInline("snake_case_name and 2*3*4"), "snake_case_name and 2<em>3</em>4");
  assert.equal(renderInline("`<b>`"), "<code>&lt;b&gt;</code>");
  assert.equal(renderInline("<https://a.org>"), '<a href="https://a.org" title="https://a.org">https://a.org</a>');
});

test("a forged placeholder character in agent text is dropped, not expanded", () => {
  assert.equal(renderInline("a\u00000\u0000b `x`"), "a0b <code>x</code>");
});

test("blocks: headings, lists, quotes, rules, paragraphs with line breaks", () => {
  assert.equal(renderMarkdown("# Title #"), "<h1>Title</h1>");
  assert.equal(renderMarkdown("- a\n- **b**"), "<ul><li>a</li><li><strong>b</strong></li></ul>");
  assert.equal(renderMarkdown("3. c\n4. d"), '<ol start="3"><li>c</li><li>d</li></ol>');
  assert.equal(renderMarkdown("> quoted\n> more"), "<blockquote><p>quoted<br>more</p></blockquote>");
  assert.equal(renderMarkdown("a\n\n---\n\nb"), "<p>a</p>\n<hr>\n<p>b</p>");
  assert.equal(renderMarkdown("one\ntwo"), "<p>one<br>two</p>");
});

test("fenced code is literal, and an unterminated fence (still streaming) runs to the end", () => {
  assert.equal(
    renderMarkdown("```py\nx = '<a>' ** 2\n```\nafter"),
    '<pre data-lang="py"><code>x = &#39;&lt;a&gt;&#39; ** 2</code></pre>\n<p>after</p>',
  );
  assert.equal(renderMarkdown("~~~\n# not a heading"), "<pre><code># not a heading</code></pre>");
  assert.equal(
    renderMarkdown('```"><script>\nx\n```'),
    '<pre data-lang="&quot;&gt;&lt;script&gt;"><code>x</code></pre>',
  );
});

test("pipe tables", () => {
  assert.equal(
    renderMarkdown("| a | b |\n|---|:-:|\n| 1 | `2` |"),
    "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><code>2</code></td></tr></tbody></table>",
  );
});

test("CRLF input renders like LF", () => {
  assert.equal(renderMarkdown("a\r\nb"), renderMarkdown("a\nb"));
});
