// Runs an rtk agent plugin (TypeScript source, transpiled here) against one fake tool call.
// usage: node harness.mjs opencode|pi PLUGIN.ts '<call JSON>'
// prints {"threw": null|message, "returned": value, "after": <the call's objects after the handler>}
import ts from "typescript"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [kind, file, callJson] = process.argv.slice(2)
const source = readFileSync(file, "utf8")
const js = ts.transpileModule(source, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
}).outputText
const out = join(mkdtempSync(join(tmpdir(), "rtk-plugin-")), "plugin.mjs")
writeFileSync(out, js)
const mod = await import(pathToFileURL(out).href)
const call = JSON.parse(callJson)
const result = { threw: null, returned: null, after: null, exports: Object.keys(mod) }
try {
  if (kind === "opencode") {
    // OpenCode calls every exported function as a plugin and runs each one's hook.
    for (const plugin of Object.values(mod)) {
      if (typeof plugin !== "function") continue
      const hooks = await plugin({ client: {}, project: {}, directory: "/tmp", worktree: "/tmp", $: null })
      result.returned = (await hooks["tool.execute.before"](call.input, call.output)) ?? null
    }
    result.after = call.output
  } else {
    const handlers = []
    mod.default({ on: (event, handler) => handlers.push([event, handler]) })
    for (const [event, handler] of handlers) {
      if (event === "tool_call") result.returned = (await handler(call, {})) ?? null
    }
    result.after = call
  }
} catch (e) {
  result.threw = String(e)
}
console.log(JSON.stringify(result))
