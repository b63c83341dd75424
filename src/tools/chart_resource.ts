/** `<scheme>://chart/{id}`: the SVG of a chart a tool drew in this runtime, for clients that show SVG. */
import { ToolError } from "../core/errors.ts";
import type { ToolsetName } from "../config.ts";
import type { ResourceDef } from "./tool_def.ts";
import { chartStore } from "./chart_image.ts";

/** One resource template per toolset that draws charts (each toolset can be enabled alone). */
export function chartResource(toolset: ToolsetName, scheme: string, tools: string): ResourceDef {
  return {
    toolset,
    name: `${toolset}-chart`,
    title: "Chart (SVG)",
    description: `A chart drawn by ${tools}, as SVG: the svgUri of the tool's result. Kept for the ` +
      `server's recent charts; draw it again when it is gone. Example URI: ${scheme}://chart/0123456789abcdef`,
    mimeType: "image/svg+xml",
    uriTemplate: `${scheme}://chart/{id}`,
    read(uri, params, ctx) {
      const chart = /^[0-9a-f]{16}$/.test(params.id ?? "") ? chartStore(ctx).get(params.id) : undefined;
      if (!chart) {
        return Promise.reject(
          new ToolError(
            "ENTITY_NOT_FOUND",
            `No chart ${params.id} is held by this server (charts are kept for the recent ones only).`,
            `Call ${tools} again: its result names the chart's svgUri.`,
          ),
        );
      }
      return Promise.resolve([{ uri, mimeType: "image/svg+xml", text: chart.svg }]);
    },
  };
}
