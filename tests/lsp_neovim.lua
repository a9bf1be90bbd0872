-- Drives `amdgpu-lint lsp` from a headless Neovim (run by tests/test_lsp_neovim.py after the
-- README's configuration): waits for diagnostics, hovers a kernel label, applies the quick fix,
-- hovers again while a lint runs, writes what it saw as JSON and quits as a user would (`:qa!`).
-- Inputs (environment): LSP_RESULT (output path), LSP_HOVER_LINE and LSP_ACTION_LINE (0-based; -1:
-- no quick fix).
local started = _G.amdgpu_lint_started
local function ms(since) return (vim.loop.hrtime() - since) / 1e6 end
local result = { published = {}, hover_latencies_ms = {} }
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local hover_line = tonumber(os.getenv("LSP_HOVER_LINE"))
local action_line = tonumber(os.getenv("LSP_ACTION_LINE"))

local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
local last = nil
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
  if params.uri == uri then
    last = params
    table.insert(result.published, { ms = ms(started), version = params.version, count = #params.diagnostics })
  end
  return publish(err, params, ctx, config)
end

local function finish()
  local file = io.open(os.getenv("LSP_RESULT"), "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qall!")
end

local function hover()
  local params = { textDocument = { uri = uri }, position = { line = hover_line, character = 0 } }
  local before = vim.loop.hrtime()
  local responses = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 30000) or {}
  local latency = ms(before)
  for _, response in pairs(responses) do
    if response.result then return response.result.contents.value, latency end
  end
  return nil, latency
end

local function wait_for_publish(count)
  return vim.wait(120000, function() return #result.published >= count end, 5)
end

if not wait_for_publish(1) then result.error = "no diagnostics"; return finish() end
result.first_diagnostics_ms = result.published[1].ms
result.diagnostics = last.diagnostics
local client = ((vim.lsp.get_clients or vim.lsp.get_active_clients)({ bufnr = buf }))[1]
result.hover, result.hover_ms = hover()

if action_line >= 0 then
  local range = { start = { line = action_line, character = 0 }, ["end"] = { line = action_line, character = 1 } }
  local responses = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
    textDocument = { uri = uri }, range = range, context = { diagnostics = last.diagnostics } }, 30000) or {}
  result.actions = {}
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      table.insert(result.actions, action.title)
      if #result.actions == 1 then vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding) end
    end
  end
  result.fixed_lines = vim.api.nvim_buf_get_lines(buf, math.max(action_line - 1, 0), action_line + 2, false)
  if not wait_for_publish(2) then result.error = "no diagnostics after the fix"; return finish() end
  result.after_fix = last.diagnostics
end

-- An edit, then hovers until its diagnostics arrive: the server answers from its last result meanwhile.
local count = #result.published
local edited = vim.loop.hrtime()
vim.api.nvim_buf_set_lines(buf, -1, -1, false, { "; edited" })
while #result.published == count and ms(edited) < 120000 do
  local _, latency = hover()
  table.insert(result.hover_latencies_ms, latency)
  vim.wait(20)
end
result.relint_ms = ms(edited)

result.log = vim.lsp.get_log_path()
finish()
