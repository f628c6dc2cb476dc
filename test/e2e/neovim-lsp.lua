-- Driven by test/e2e/lsp-neovim.test.ts: Neovim's own LSP client (0.7 API: start_client and
-- buf_attach_client, which 0.8+ still has) talks to `node bin/refcat.js lsp` on a temp
-- project; every answer is written as JSON to $OUT, then Neovim quits.
local root = os.getenv('LSP_ROOT')
local bin = os.getenv('REFCAT_BIN')
local out = {}
local diags = {}
local exit_code = nil

local function finish()
  local f = io.open(os.getenv('OUT'), 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local id = vim.lsp.start_client({
    name = 'refcat',
    cmd = { 'node', bin, 'lsp' },
    root_dir = root,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, result, ctx, config)
        table.insert(diags, result)
        vim.lsp.diagnostic.on_publish_diagnostics(e, result, ctx, config)
      end,
    },
    on_exit = function(code) exit_code = code end,
  })
  out.started = id ~= nil
  vim.cmd('edit ' .. root .. '/docs/notes.md')
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, id)
  local uri = vim.uri_from_bufnr(buf)
  local function wait_diags(pred)
    local found = nil
    vim.wait(60000, function()
      for _, d in ipairs(diags) do
        if d.uri == uri and pred(d) then found = d return true end
      end
      return false
    end, 50)
    return found
  end
  local function messages(d)
    local m = {}
    for _, x in ipairs(d and d.diagnostics or {}) do
      table.insert(m, string.format('%d:%d-%d %s', x.range.start.line, x.range.start.character, x.range['end'].character, x.message:match('[^\n]*')))
    end
    return m
  end
  out.diagnostics = messages(wait_diags(function(d) return #d.diagnostics > 0 end))
  -- What the editor shows in its diagnostic list, not only what the server sent.
  out.shown = #vim.diagnostic.get(buf)

  local function request(method, params)
    local res = vim.lsp.buf_request_sync(buf, method, params, 60000)
    return res and res[id] and (res[id].result or res[id].error) or vim.NIL
  end
  local at = function(line, character) return { textDocument = { uri = uri }, position = { line = line, character = character } } end
  local hover = request('textDocument/hover', at(0, 6))
  out.hover = hover ~= vim.NIL and hover.contents.value or vim.NIL
  local def = request('textDocument/definition', at(0, 6))
  out.definition = def ~= vim.NIL and { uri = def[1].uri, line = def[1].range.start.line } or vim.NIL
  local completion = request('textDocument/completion', at(2, 9))
  local labels = {}
  for _, item in ipairs(completion ~= vim.NIL and completion.items or {}) do table.insert(labels, item.label) end
  out.completion = labels
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = 1, character = 6 }, ['end'] = { line = 1, character = 6 } },
    context = { diagnostics = {} },
  })
  out.actions = {}
  for _, a in ipairs(actions ~= vim.NIL and actions or {}) do table.insert(out.actions, a.title) end
  if actions ~= vim.NIL and actions[1] then
    vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
    out.after_action = vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1]
  end

  -- An unsaved edit: the buffer gains a broken ref; the diagnostic comes without :write.
  vim.api.nvim_buf_set_lines(buf, 3, 3, false, { 'Typed now: @src/typo.ts' })
  out.live = messages(wait_diags(function(d)
    for _, x in ipairs(d.diagnostics) do if x.message:find('typo', 1, true) then return true end end
    return false
  end))
  out.modified = vim.bo[buf].modified

  vim.lsp.get_client_by_id(id).stop()
  vim.wait(30000, function() return exit_code ~= nil end, 50)
  out.exit_code = exit_code == nil and vim.NIL or exit_code
end)
if not ok then out.error = tostring(err) end
finish()
