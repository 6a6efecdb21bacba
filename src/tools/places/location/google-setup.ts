import type { ToolContext } from "../../kit/define-tool.js";
import { checkGoogleKey, GOOGLE_KEY_VARIABLE, GoogleRefusal, googlePlacesKey } from "./google-places.js";

const STEPS = [
  "1. Open https://console.cloud.google.com/ and choose or create a project. Google asks for a billing account " +
    "for Places; each month comes with free usage.",
  "2. Enable “Places API (New)”: https://console.cloud.google.com/apis/library/places.googleapis.com → Enable.",
  "3. Create a key: APIs & Services → Credentials (https://console.cloud.google.com/apis/credentials) → " +
    "Create credentials → API key. Copy it.",
  "4. Restrict the key: edit it, under “API restrictions” choose “Restrict key” and tick only “Places API (New)”; " +
    "save. (An application restriction by IP address is possible too.)",
  `5. Give it to Marvin: add \`export ${GOOGLE_KEY_VARIABLE}=<your key>\` to your shell profile ` +
    "(~/.bashrc or ~/.zshrc), open a new terminal and start Marvin again.",
  "6. Run setup_google_auth again: it checks the key with one free request.",
];

const HOW_TO = `How to set up Google Places for Marvin:\n${STEPS.join("\n")}`;

/** Which step to redo for Google's reason (the ErrorInfo reason, else the status). */
function advice(refusal: GoogleRefusal): string {
  switch (refusal.reason ?? refusal.status) {
    case "API_KEY_INVALID":
      return "The key is not a valid key: copy it again from the Credentials page (step 3).";
    case "SERVICE_DISABLED":
      return "Places API (New) is not enabled for the key's project: do step 2 (it can take a few minutes to apply).";
    case "API_KEY_SERVICE_BLOCKED":
      return "The key's API restrictions do not include Places API (New): fix them in step 4.";
    case "BILLING_DISABLED":
      return "The project has no billing account: add one in step 1.";
    default:
      return "Check steps 2 to 4.";
  }
}

/** The instructions, and the verdict on the key that is set, if one is. */
export async function googleSetupReport(context: ToolContext): Promise<string> {
  const key = googlePlacesKey(context.env);
  if (!key) {
    return (
      `${GOOGLE_KEY_VARIABLE} is not set, so place searches use OpenStreetMap (free, no key; no ratings or ` +
      `“open now”).\n\n${HOW_TO}`
    );
  }
  try {
    await checkGoogleKey(context, key);
  } catch (error) {
    if (!(error instanceof GoogleRefusal)) throw error;
    const refusal = `HTTP ${error.code} ${error.status}${error.reason ? ` (${error.reason})` : ""}`;
    const verdict = `${GOOGLE_KEY_VARIABLE} is set but Google Places does not accept it: ${refusal}`;
    return `${verdict}: "${error.googleMessage}"\n${advice(error)}\n\n${HOW_TO}`;
  }
  return `${GOOGLE_KEY_VARIABLE} is set and valid: Google Places (New) accepted it, so place searches use Google.`;
}
