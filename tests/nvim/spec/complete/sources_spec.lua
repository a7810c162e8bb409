-- acp_editor.complete.sources: what the prompt completes — `@` mentions of files (the sidecar's
-- acp/findFiles, here a stand-in) and `/` commands (the session's availableCommands) — and the
-- LSP items nvim-cmp and blink.cmp are given.

local t = require("spec")

local sources, store, asked

t.describe("mentions and commands", function()
  t.before_each(function()
    asked = {}
    sources = t.fresh("acp_editor.complete.sources", {
      ["acp_editor.sidecar.client"] = {
        request = function(method, params, callback)
          table.insert(asked, { method = method, params = params, callback = callback })
        end,
      },
    })
    store = require("acp_editor.store")
  end)

  t.describe("context", function()
    t.it("reads an @ at the start of the prompt or of a word as a file mention", function()
      t.eq({ kind = "file", start = 0, query = "hel" }, sources.context("@hel", 4, 1))
      t.eq({ kind = "file", start = 4, query = "src/a" }, sources.context("fix @src/a", 10, 1))
      t.eq({ kind = "file", start = 2, query = "" }, sources.context("\t @", 3, 2), "an @ alone, on line 2")
    end)

    t.it("reads only what comes before the cursor", function()
      t.eq({ kind = "file", start = 0, query = "he" }, sources.context("@hello.py and more", 3, 1))
      t.eq(nil, sources.context("@hello.py and more", 12, 1), "the cursor past the mention's word")
    end)

    t.it("does not read an @ inside a word (an e-mail address) as a mention", function()
      t.eq(nil, sources.context("mail me@example.com", 19, 1))
    end)

    t.it("reads a / as a command only at the very start of the prompt's first line", function()
      t.eq({ kind = "command", start = 0, query = "rev" }, sources.context("/rev", 4, 1))
      t.eq(nil, sources.context("/rev", 4, 2), "on the second line")
      t.eq(nil, sources.context(" /rev", 5, 1), "after a space")
      t.eq(nil, sources.context("/review now", 11, 1), "past the command's word")
    end)
  end)

  t.it("offers the session's commands that start with the query, case ignored", function()
    store.sessions.s1 = {
      availableCommands = {
        { name = "review", description = "Review it", input = { hint = "what to review" } },
        { name = "Research", description = 3 },
        { name = "web", description = "Search" },
        "not a command",
      },
    }
    store.current_session = "s1"
    t.eq({
      { name = "review", description = "Review it", hint = "what to review" },
      { name = "Research", description = "" },
    }, sources.commands("RE"))
    store.current_session = nil
    t.eq({}, sources.commands(""), "no session: no commands")
  end)

  t.it("asks the sidecar for files and keeps only well-formed ones", function()
    local got
    sources.files("hel", function(files, complete)
      got = { files = files, complete = complete }
    end)
    t.eq({ method = "acp/findFiles", query = "hel" }, { method = asked[1].method, query = asked[1].params.query })
    asked[1].callback(nil, {
      files = { { uri = "file:///w/hello.py", path = "hello.py", open = true }, { path = "no uri" } },
      complete = false,
    })
    t.eq({ { uri = "file:///w/hello.py", path = "hello.py", open = true, fname = "/w/hello.py" } }, got.files)
    t.eq(false, got.complete, "the workspace is still being listed")
    asked[1].callback({ message = "down" })
    t.eq({ files = {}, complete = true }, got, "an error: nothing, and done")
  end)

  t.it("makes LSP items that replace the mention, with UTF-16 columns", function()
    local line = "é @he"
    local ctx = sources.context(line, #line, 1)
    local items = sources.lsp_items(ctx, line, 1, #line, { { path = "hello.py", open = true, uri = "u" } })
    t.eq(1, #items)
    t.eq("@hello.py", items[1].textEdit.newText)
    t.eq({ start = { line = 0, character = 2 }, ["end"] = { line = 0, character = 5 } }, items[1].textEdit.range)
    t.eq({ "hello.py", "buffer", 17, "00001" }, { items[1].label, items[1].detail, items[1].kind, items[1].sortText })
    t.eq({ path = "hello.py", open = true, uri = "u" }, items[1].data.acp_editor.file)
  end)

  t.it("makes command items with the description and the input hint", function()
    local ctx = sources.context("/re", 3, 1)
    local long = ("x"):rep(60)
    local items = sources.lsp_items(ctx, "/re", 1, 3, { { name = "review", description = long, hint = "what" } })
    t.eq("/review", items[1].label)
    t.eq(48, vim.fn.strchars(items[1].detail), "the description cut to one menu line")
    t.eq(long .. "\n\ninput: what", items[1].documentation)
  end)

  t.it("attaches a file chosen in a plugin's menu, and nothing else", function()
    local attached = {}
    sources.on_file = function(file)
      table.insert(attached, file.path)
    end
    sources.chosen({ data = { acp_editor = { file = { path = "a.py" } } } })
    sources.chosen({ label = "/review" })
    sources.chosen(nil)
    t.eq({ "a.py" }, attached)
  end)

  t.it("shortens a description to one line of the width given", function()
    t.eq("a b c", sources.short("a\n  b\tc", 10))
    t.eq("abcd…", sources.short("abcdefgh", 5))
  end)
end)
