// A stand-in for VS Code and its language client, enough to run
// editors/vscode/extension.js's activate() under Node: the client starts the server the
// extension configures, opens one file as a YAML document, and prints the diagnostics the
// server publishes for it and the hover at one position, as the Neovim probe in
// tests/test_lsp.cpp does. VS Code itself is not on the test machine; this tries what the
// extension decides (the command and arguments it starts, the documents it selects, the
// `kata.path` setting) against the real `kata lsp`.
//
//   node tests/vscode_host.js FILE LINE COLUMN     (KATA: the kata command, as kata.path)
"use strict";
const Module = require("module");
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");

const [file, line, column] = process.argv.slice(2);

// `vscode`: the one setting the extension reads.
const vscode = {
  workspace: {
    getConfiguration: (section) => ({
      get: (key) => (section === "kata" && key === "path" ? process.env.KATA : undefined),
    }),
  },
};

// `vscode-languageclient/node`: JSON-RPC over the server's stdin and stdout.
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.server = serverOptions.run;
    this.selector = clientOptions.documentSelector;
  }

  start() {
    if (!this.selector.some((s) => s.language === "yaml" && s.scheme === "file"))
      throw new Error("the extension selects no YAML file: " + JSON.stringify(this.selector));
    console.log(`server ${path.basename(this.server.command)} ${this.server.args.join(" ")}`);
    this.child = spawn(this.server.command, this.server.args, { stdio: ["pipe", "pipe", "inherit"] });
    this.waiting = new Map();
    this.next = 1;
    let buffer = Buffer.alloc(0);
    let diagnosed;
    const diagnostics = new Promise((resolve) => (diagnosed = resolve));
    this.child.stdout.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
        if (buffer.length < end + 4 + length) return;
        const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
        buffer = buffer.subarray(end + 4 + length);
        if (message.id !== undefined && this.waiting.has(message.id)) {
          this.waiting.get(message.id)(message.result);
          this.waiting.delete(message.id);
        } else if (message.method === "textDocument/publishDiagnostics") {
          diagnosed(message.params.diagnostics);
        }
      }
    });
    const uri = "file://" + path.resolve(file);
    return (async () => {
      await this.request("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
      this.send({ method: "initialized", params: {} });
      const text = fs.readFileSync(file, "utf8");
      this.send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "yaml", version: 1, text } } });
      for (const d of await diagnostics)
        console.log(`diagnostic ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
      const position = { line: Number(line) - 1, character: Number(column) - 1 };
      const hover = await this.request("textDocument/hover", { textDocument: { uri }, position });
      if (hover) console.log("hover " + hover.contents.value);
    })();
  }

  async stop() {
    await this.request("shutdown", null);
    const exited = new Promise((resolve) => this.child.on("exit", resolve));
    this.send({ method: "exit" });
    console.log("exit " + (await exited));
  }

  send(message) {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }));
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  request(method, params) {
    return new Promise((resolve) => {
      const id = this.next++;
      this.waiting.set(id, resolve);
      this.send({ id, method, params });
    });
  }
}

const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient };
  return load.call(this, request, ...rest);
};

const extension = require(path.join(__dirname, "..", "editors", "vscode", "extension.js"));
const context = { subscriptions: [] };
const timer = setTimeout(() => {
  console.error("no answer from the server in 30 s");
  process.exit(2);
}, 30000);
Promise.resolve(extension.activate(context))
  .then(() => extension.deactivate())
  .then(() => {
    clearTimeout(timer);
    console.log(`subscriptions ${context.subscriptions.length}`);
  })
  .catch((e) => {
    console.error(e.stack || String(e));
    process.exit(1);
  });
