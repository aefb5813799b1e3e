// Starts `kata lsp` for YAML files: kata check's errors and warnings as you type.
// The YAML structure is validated by Red Hat's YAML extension from the schemas this
// extension contributes (package.json, yamlValidation).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("kata").get("path") || "kata";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "kata",
    "kata",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "yaml" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
