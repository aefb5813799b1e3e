-- kata rule files in Neovim (0.7 or later): starts one `kata lsp` for the YAML buffers
-- (rule files, imports, scenarios) and attaches each to it, so kata check's errors and
-- warnings show as you type, with hover, go to definition, references, rename and
-- completion. From init.lua:
--
--   dofile("/path/to/kata/editors/neovim/kata.lua")
--
-- The server is `kata` on the PATH, or the binary the KATA environment variable names.
-- (On Neovim 0.8 or later, docs/editors.md's shorter `vim.lsp.start` does the same.)
local cmd = { os.getenv("KATA") or "kata", "lsp" }
local client_id = nil

vim.api.nvim_create_autocmd("FileType", {
  pattern = "yaml",
  callback = function(args)
    if client_id == nil or vim.lsp.client_is_stopped(client_id) then
      client_id = vim.lsp.start_client({ name = "kata", cmd = cmd, root_dir = vim.fn.getcwd() })
    end
    if client_id ~= nil then
      vim.lsp.buf_attach_client(args.buf, client_id)
    end
  end,
})
