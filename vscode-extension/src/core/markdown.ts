/**
 * A small, safe Markdown → HTML renderer for agent messages.
 *
 * Agent text is untrusted (a model can be steered by what it reads), so nothing in it becomes
 * markup except the constructs below: every character is HTML-escaped first, raw HTML stays text,
 * and links keep only http(s)/mailto/file targets or workspace-relative paths. The webview's
 * strict CSP is the second wall. Streaming-friendly: an unterminated code fence renders as code
 * up to the end, so a half-received message never flips into a different layout later.
 *
 * Covered: headings, paragraphs (single newlines kept as line breaks, as chat UIs do), fenced code,
 * block quotes, flat bullet/numbered lists, pipe tables, rules, and inline code, bold, italic,
 * strikethrough, links and <autolinks>.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A link target as it may appear in an href, or null when it must stay plain text. */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (/^(https?:|mailto:|file:)/i.test(url)) return url;
  // A scheme-less path (no colon before the first slash) points into the workspace: the host
  // resolves and opens it. Anything else (javascript:, data:, vscode:, ...) is refused.
  if (url !== "" && !/^[^/?#]*:/.test(url)) return url;
  return null;
}

// eslint-disable-next-line no-control-regex -- NUL is the placeholder's delimiter, on purpose: no text has it.
const PLACEHOLDER = /\u0000(\d+)\u0000/g;

/** Inline markup of one line or paragraph (already split into blocks). */
export function renderInline(text: string): string {
  const held: string[] = [];
  const hold = (html: string): string => `\u0000${held.push(html) - 1}\u0000`;
  // Strip the placeholder character from the input so agent text can never forge a placeholder.
  // eslint-disable-next-line no-control-regex -- the placeholder's NUL, stripped from the input.
  let s = text.replace(/\u0000/g, "");
  // Code spans first: their content is literal, so it is escaped and set aside untouched.
  s = s.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) =>
    hold(`<code>${escapeHtml(code.trim() === "" ? code : code.replace(/^ (.*) $/s, "$1"))}</code>`),
  );
  s = s.replace(/<((?:https?|mailto):[^\s<>]+)>/gi, (_m, url: string) => hold(link(url, escapeHtml(url))));
  s = escapeHtml(s);
  // Links: text may hold emphasis; the target is held back so no emphasis rule touches a URL.
  s = s.replace(/\[([^\]\n]+)\]\(([^()\s]+)(?:\s+&quot;[^]*?&quot;)?\)/g, (m, label: string, target: string) => {
    const href = safeHref(unescapeHtml(target));
    return href === null ? m : hold(link(href, emphasis(label)));
  });
  s = emphasis(s);
  return s.replace(PLACEHOLDER, (_m, i: string) => held[Number(i)] ?? "");
}

function emphasis(s: string): string {
  return s
    .replace(/\*\*(?=\S)([^]*?\S)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^\w])__(?=\S)([^]*?\S)__(?!\w)/g, "$1<strong>$2</strong>")
    .replace(/\*(?=[^\s*])([^*]*?[^\s*])\*/g, "<em>$1</em>")
    .replace(/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~(?=\S)([^]*?\S)~~/g, "<del>$1</del>");
}

function unescapeHtml(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? "",
  );
}

function link(href: string, labelHtml: string): string {
  return `<a href="${escapeHtml(href)}" title="${escapeHtml(href)}">${labelHtml}</a>`;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());
}

export function renderMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let para: string[] = [];
  const flush = (): void => {
    if (para.length > 0) out.push(`<p>${para.map(renderInline).join("<br>")}</p>`);
    para = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] ?? "```";
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? "").trim().startsWith(marker)) body.push(lines[i++] ?? "");
      i++; // the closing fence (or past the end: an unterminated fence while streaming)
      const lang = fence[2] ? ` data-lang="${escapeHtml(fence[2])}"` : "";
      out.push(`<pre${lang}><code>${escapeHtml(body.join("\n"))}</code></pre>`);
      continue;
    }
    if (line.trim() === "") {
      flush();
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = (heading[1] ?? "#").length;
      out.push(`<h${level}>${renderInline(heading[2] ?? "")}</h${level}>`);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      flush();
      out.push("<hr>");
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      flush();
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? "")) body.push(QUOTE.exec(lines[i++] ?? "")?.[1] ?? "");
      out.push(`<blockquote>${renderMarkdown(body.join("\n"))}</blockquote>`);
      continue;
    }
    const list = BULLET.test(line) ? BULLET : ORDERED.test(line) ? ORDERED : null;
    if (list) {
      flush();
      const items: string[] = [];
      const first = ORDERED.exec(line)?.[1];
      while (i < lines.length && list.test(lines[i] ?? "")) {
        const m = list.exec(lines[i++] ?? "");
        items.push(`<li>${renderInline((list === ORDERED ? m?.[2] : m?.[1]) ?? "")}</li>`);
      }
      const start = list === ORDERED && first !== undefined && first !== "1" ? ` start="${Number(first)}"` : "";
      out.push(list === ORDERED ? `<ol${start}>${items.join("")}</ol>` : `<ul>${items.join("")}</ul>`);
      continue;
    }
    if (line.includes("|") && TABLE_SEP.test(lines[i + 1] ?? "") && (lines[i + 1] ?? "").includes("-")) {
      flush();
      const head = cells(line)
        .map((c) => `<th>${renderInline(c)}</th>`)
        .join("");
      const rows: string[] = [];
      i += 2;
      while (i < lines.length && (lines[i] ?? "").includes("|") && (lines[i] ?? "").trim() !== "") {
        rows.push(
          `<tr>${cells(lines[i++] ?? "")
            .map((c) => `<td>${renderInline(c)}</td>`)
            .join("")}</tr>`,
        );
      }
      out.push(`<table><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`);
      continue;
    }
    para.push(line);
    i++;
  }
  flush();
  return out.join("\n");
}
