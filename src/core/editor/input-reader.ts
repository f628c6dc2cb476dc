import {
  AbstractMessageReader,
  type DataCallback,
  type Disposable,
  type Message,
  type NotificationMessage,
  RAL,
} from 'vscode-languageserver-protocol/node.js';

/** Handed on after the last message once the input closes; known by identity, so no client can send it. */
export const END_OF_INPUT: Message = Object.freeze<NotificationMessage>({ jsonrpc: '2.0', method: '$/refcat/endOfInput' });

/**
 * The client's messages, each handed on as soon as its frame is complete, then END_OF_INPUT. The
 * library's reader hands each on a tick later, so a close could overtake a queued `exit`.
 */
export class InputReader extends AbstractMessageReader {
  private stop: () => void = () => {};

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const buffer = RAL().messageBuffer.create('utf-8');
    const text = new TextDecoder();
    let length = -1;
    const read = () => {
      for (;;) {
        if (length === -1) {
          const headers = buffer.tryReadHeaders(true);
          if (!headers) return;
          const declared = headers.get('content-length') ?? '';
          if (!/^\d+$/.test(declared)) throw new Error(`Content-Length must be a number of bytes, got ${JSON.stringify(declared)}`);
          length = Number(declared);
        }
        const body = buffer.tryReadBody(length);
        if (!body) return;
        length = -1;
        let message: Message;
        try {
          message = JSON.parse(text.decode(body)) as Message;
        } catch (err) {
          this.fireError(err);
          continue;
        }
        callback(message);
      }
    };
    // A malformed frame is the client's mistake: reported on onError, as the library's reader does.
    const onData = (chunk: Buffer | string) => {
      try {
        buffer.append(chunk);
        read();
      } catch (err) {
        this.fireError(err);
      }
    };
    const onError = (err: Error) => this.fireError(err);
    const onClose = () => {
      callback(END_OF_INPUT);
      this.fireClose();
    };
    this.input.on('data', onData);
    this.input.on('error', onError);
    this.input.on('close', onClose);
    this.stop = () => {
      this.input.off('data', onData);
      this.input.off('error', onError);
      this.input.off('close', onClose);
    };
    return { dispose: () => this.stop() };
  }

  override dispose(): void {
    this.stop();
    super.dispose();
  }
}
