// Starts the ludolex language server, `ludolex lsp` over stdio, for .rules files and the game's YAML.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

const DOCUMENTS = [
  { scheme: "file", language: "ludolex" },
  { scheme: "file", language: "yaml", pattern: "**/cards/**/*.yaml" },
  { scheme: "file", language: "yaml", pattern: "**/rulesets/**/*.yaml" },
];

let client;
let output; // one Output panel channel for every server started, restarts included

function workspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length ? folders[0].uri.fsPath : undefined;
}

// The `ludolex.command` setting, with ${workspaceFolder} replaced (for a virtual environment's ludolex).
function ludolexCommand() {
  const setting = vscode.workspace.getConfiguration("ludolex").get("command") || "ludolex";
  return setting.replace(/\$\{workspaceFolder\}/g, workspaceFolder() || ".");
}

async function startServer() {
  const command = ludolexCommand();
  const server = { command, args: ["lsp"], transport: TransportKind.stdio, options: { cwd: workspaceFolder() } };
  client = new LanguageClient("ludolex", "ludolex", server, { documentSelector: DOCUMENTS, outputChannel: output });
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    vscode.window.showErrorMessage(
      `ludolex: could not start \`${command} lsp\` (${error.message}). ` +
        'Set "ludolex.command" to the ludolex program, for example ${workspaceFolder}/.venv/bin/ludolex.'
    );
  }
}

async function stopServer() {
  if (client) {
    const running = client;
    client = undefined;
    await running.dispose();
  }
}

async function restartServer() {
  await stopServer();
  await startServer();
}

function activate(context) {
  output = vscode.window.createOutputChannel("ludolex");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("ludolex.restartServer", restartServer),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration("ludolex.command")) {
        restartServer();
      }
    })
  );
  return startServer();
}

function deactivate() {
  return stopServer();
}

module.exports = { activate, deactivate };
