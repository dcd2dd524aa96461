// The WebSocket to the server (the protocol is in kiosk/messages.py): messages in, messages out, and a
// new try after a drop. A page that cannot connect waits twice as long before each new try, up to a
// minute: a page refused for want of a place (the server keeps a few) asks again now and then, not every
// 2 s for ever. The kiosk's own page (opened as /?control=TOKEN) is never refused a place: only a
// restarting server keeps it out, so it tries again every 2 s at most, to be back at once.

import { openWorkerConnection } from "./worker_connection.js";

const RETRY_FIRST_MS = 250;

// ``query()``: what the connection asks for, read at each try (the kiosk's control token; online, the
// game's ID, so that a page that reconnects comes back to its own game)
// The browser edition (make web marks its page data-edition="browser") has no server: its PDP-1 runs in a Worker.
export function openConnection({ control, query = () => "", onMessage, onDrop }) {
  if (document.body.dataset.edition === "browser") return openWorkerConnection({ onMessage, onDrop });
  const retryMax = control ? 2000 : 60000;
  const waits = [];  // every wait before a new try, in order (the browser tests read it)
  let socket = null;
  let retry = RETRY_FIRST_MS;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws` + query());
    socket.onopen = () => { retry = RETRY_FIRST_MS; };
    socket.onmessage = (event) => onMessage(JSON.parse(event.data));
    socket.onclose = () => {
      socket = null;
      onDrop();
      waits.push(retry);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, retryMax);
    };
  }
  connect();

  return {
    send(message) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); },
    drop() { if (socket) socket.close(); },  // to be sent everything again (the server's hello)
    retryWaits: () => [...waits],
  };
}
