// rtk extension for Pi, written by `rtk init` (rtk @VERSION@); `rtk init --uninstall` removes it.
// Before each bash call it asks `rtk rewrite` for the rtk form of the command and changes
// event.input in place (git status -> rtk git status). Any failure (rtk missing, slow or refusing)
// leaves the command as it was: an error in a handler would block the call, so nothing here throws.
import { execFile } from "node:child_process"

const RTK: string = "@RTK@" // rtk init writes the absolute path of the rtk launcher here
const TIMEOUT_MS = 2000

// The part of Pi's extension API used here (pi.on("tool_call", handler), event.input mutable).
interface ToolCallEvent {
  type?: string
  toolName: string
  toolCallId?: string
  input: Record<string, unknown>
}
interface ExtensionAPI {
  on(event: "tool_call", handler: (event: ToolCallEvent, ctx: unknown) => Promise<unknown> | unknown): void
}

// Exit codes of `rtk rewrite`: 0 rewritten (allowed), 3 rewritten (ask as usual), 1 nothing, 2 denied.
function rewrite(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      execFile(RTK, ["rewrite", "--", command], { timeout: TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
        const code = error ? error.code : 0
        const next = String(stdout ?? "").replace(/\r?\n$/, "")
        resolve((code === 0 || code === 3) && next !== "" && next !== command ? next : undefined)
      })
    } catch {
      resolve(undefined)
    }
  })
}

export default function rtk(pi: ExtensionAPI): void {
  pi.on("tool_call", async (event) => {
    try {
      if (event.toolName !== "bash" || !event.input) return undefined
      const command = event.input.command
      if (typeof command !== "string") return undefined
      const next = await rewrite(command)
      if (next !== undefined) event.input.command = next
    } catch {
      // leave the command unchanged
    }
    return undefined
  })
}
