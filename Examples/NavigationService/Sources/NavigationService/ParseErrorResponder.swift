import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers an HTTP/1.1 parse error with a JSON error instead of Hummingbird's empty 400.
///
/// Hummingbird turns an `HTTPParserError` that arrives before a request head (a garbage request
/// line, a request line and headers over the decoder's 80 KiB limit) into `400` with an empty
/// body, written by its connection loop where no middleware runs. This handler sits in the
/// channel pipeline after the HTTP decoding (`HTTP1Channel.Configuration`'s
/// `additionalChannelHandlers`) and sees the error first:
///
/// * between requests, it writes the ``APIError`` of the error itself, closes the connection's
///   output and lets the client close (or closes after ``lingering``), so the reply is not lost
///   to a reset while the client is still sending;
/// * after a request's body has ended but before its response has, it answers once that
///   response ends;
/// * while a request's body is being read, it passes the error on: the route reading the body
///   throws it, and ``JSONErrorMiddleware`` answers as for any error. When the route does not
///   read the body, its response goes out, and Hummingbird's connection loop meets the error
///   next and writes its empty 400: that head is replaced by the JSON error.
final class ParseErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// How long the connection stays open for the client to read the reply and close.
  static let lingering = TimeAmount.seconds(5)

  /// Requests whose head came in and whose response has not ended.
  private var open = 0
  /// Whether the last request's body has ended.
  private var bodyEnded = true
  /// A parse error to answer once the response in progress ends.
  private var pending: HTTPParserError?
  /// Whether this connection was answered with a parse error (later errors are ignored).
  private var answered = false
  /// A parse error passed on to the request being read.
  private var passedOn: HTTPParserError?

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      open += 1
      bodyEnded = false
    case .end:
      bodyEnded = true
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let part = unwrapOutboundIn(data)
    if case .head(let head) = part, let error = passedOn, head.status == .badRequest,
      head.headerFields[.contentLength] == "0"
    {
      // Hummingbird's own answer to the error passed on: the same status, with a JSON body.
      passedOn = nil
      answered = true
      let (jsonHead, body) = Self.reply(to: error)
      context.write(wrapOutboundOut(.head(jsonHead)), promise: nil)
      context.write(wrapOutboundOut(.body(body)), promise: promise)
      return
    }
    guard case .end = part else {
      context.write(data, promise: promise)
      return
    }
    open = max(open - 1, 0)
    context.write(data, promise: promise)
    if open == 0, let error = pending {
      pending = nil
      answer(error, context: context)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if answered || pending != nil { return }
    guard let error = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    if open == 0 {
      answer(error, context: context)
    } else if bodyEnded {
      pending = error
    } else {
      passedOn = error
      context.fireErrorCaught(error)
    }
  }

  /// The head and body of the JSON error for a parse error.
  static func reply(to error: HTTPParserError) -> (HTTPResponse, ByteBuffer) {
    let apiError = APIError.from(error)
    let body = (try? apiError.jsonBody()) ?? Data()
    var fields = HTTPFields()
    fields[.contentType] = "application/json; charset=utf-8"
    fields[.contentLength] = String(body.count)
    fields[.connection] = "close"
    return (HTTPResponse(status: apiError.status, headerFields: fields), ByteBuffer(bytes: body))
  }

  private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
    answered = true
    let (head, body) = Self.reply(to: error)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(body)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    context.close(mode: .output, promise: nil)
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.eventLoop.scheduleTask(in: Self.lingering) { bound.value.close(promise: nil) }
  }
}
