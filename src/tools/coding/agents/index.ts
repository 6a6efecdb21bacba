export { agentTools } from "./launch-agent.js";
