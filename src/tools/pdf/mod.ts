/** The pdf toolset: its ToolDefs and ResourceDefs, in the order tools/list shows them. */
import type { AnyToolDef, ResourceDef } from "../tool_def.ts";
import { listPdfs } from "./list_pdfs.ts";
import { pdfTextResource } from "./pdf_resource.ts";
import { renderPdfPage } from "./render_pdf_page.ts";
import { searchPdf } from "./search_pdf.ts";
import { searchPdfs } from "./search_pdfs.ts";

export const pdfTools: AnyToolDef[] = [searchPdf, searchPdfs, listPdfs, renderPdfPage];
export const pdfResources: ResourceDef[] = [pdfTextResource];
