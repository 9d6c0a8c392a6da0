// rtk plugin for OpenCode, written by `rtk init` (rtk __RTK_VERSION__); `rtk init --uninstall` removes it.
// Before each shell call it asks `rtk rewrite` for the rtk form of the command and swaps it in place
// (git status -> rtk git status). Any failure (rtk missing, slow or refusing) leaves the command
// as it was: a thrown error would block the tool, so nothing here throws.
import type { Plugin } from "@opencode-ai/plugin"
import { execFile } from "node:child_process"

const RTK: string = "rtk" // rtk init writes the absolute path of the rtk launcher here
const TIMEOUT_MS = 2000
const SHELL_TOOLS = new Set(["bash", "shell"])

// Exit codes of `rtk rewrite`: 0 rewritten (allowed), 3 rewritten (ask as usual), 1 nothing, 2 denied.
function rewrite(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      execFile(RTK, ["rewrite", "--host", "opencode", "--", command], { timeout: TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
        const code = error ? error.code : 0
        const next = String(stdout ?? "").replace(/\r?\n$/, "")
        resolve((code === 0 || code === 3) && next !== "" && next !== command ? next : undefined)
      })
    } catch {
      resolve(undefined)
    }
  })
}

export const RtkPlugin: Plugin = async () => ({
  "tool.execute.before": async (input, output) => {
    try {
      if (!SHELL_TOOLS.has(input.tool)) return
      const args = output.args
      if (!args || typeof args.command !== "string") return
      const next = await rewrite(args.command)
      if (next !== undefined) args.command = next
    } catch {
      // leave the command unchanged
    }
  },
})
