import { downloadFile } from "./download-file.js";
import { ytDlpDownload } from "./yt-dlp-download.js";

/** The downloads domain (seed 000 §2.8): files and media saved into ~/Downloads. */
export const downloadTools = [downloadFile, ytDlpDownload];
