-- acp_editor.session.prompt_items: a prompt as people read it — the typed text, and each
-- attachment an item of its own.

local t = require("spec")

local items

local function text(s)
  return { type = "text", text = s }
end

t.describe("prompt items", function()
  t.before_each(function()
    items = t.fresh("acp_editor.session.prompt_items")
  end)

  t.it("takes the first text block as what was typed", function()
    t.eq("fix it", items.typed({ text("  fix it\n"), text("attached") }))
    t.eq("", items.typed({ { type = "image" } }))
    t.eq("", items.typed(nil))
  end)

  t.it("shows a file URI as a path from the working directory, keeping a line range", function()
    local cwd = vim.fn.getcwd()
    t.eq("src/a.py", items.path(vim.uri_from_fname(cwd .. "/src/a.py")))
    t.eq("src/a.py#L3-L5", items.path(vim.uri_from_fname(cwd .. "/src/a.py") .. "#L3-L5"))
    t.eq("https://example.com/x", items.path("https://example.com/x"))
  end)

  t.it("makes one item per attachment: a file linked and embedded is one", function()
    local uri = vim.uri_from_fname(vim.fn.getcwd() .. "/a.py")
    local got = items.attached({
      text("look"),
      { type = "resource_link", uri = uri, name = "a.py" },
      { type = "resource", resource = { uri = uri, text = "x\ny\n" } },
      { type = "resource_link", uri = "https://example.com", name = "Example" },
      text("first line\nsecond\n"),
      { type = "image", mimeType = "image/png", data = "AAAA" },
      { type = "audio" },
    })
    t.eq({
      { kind = "file", label = "a.py" },
      { kind = "link", label = "Example" },
      { kind = "text", label = "“first line”", detail = "2 lines" },
      { kind = "image", label = "image", detail = "image/png, 3 B" },
      { kind = "audio", label = "audio" },
    }, got)
  end)

  t.it("shortens a long attached text's label", function()
    local got = items.attached({ text("typed"), text(("word "):rep(30)) })
    t.eq(items.LABEL_MAX + 2, vim.fn.strchars(got[1].label), "the label and its quotes")
    t.matches("…”$", got[1].label)
  end)

  t.it("writes an item as a line of the chat", function()
    t.eq("- file hello.py (3 lines)", items.line({ kind = "file", label = "hello.py", detail = "3 lines" }))
    t.eq("- audio", items.line({ kind = "audio", label = "audio" }))
  end)

  t.it("titles a session by the typed line, else the first file or image", function()
    t.eq("fix the test", items.title({ text("fix the test\nplease") }))
    local uri = vim.uri_from_fname(vim.fn.getcwd() .. "/b.py")
    t.eq(
      "b.py",
      items.title({ { type = "resource_link", uri = "https://x", name = "X" }, { type = "resource_link", uri = uri } })
    )
    t.eq("", items.title({}))
  end)
end)
