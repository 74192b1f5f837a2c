# raven-ruby (Debian's ruby-sentry-raven) sending one exception to SENTRY_DSN's store endpoint
# with its default settings: `encoding = 'gzip'`, which is the base64 of zlib-deflated JSON
# sent as application/octet-stream. Prints {"id": "<event id>"} once the server has answered.
require 'json'
require 'logger'
require 'raven'

Raven.configure do |config|
  config.dsn = ENV.fetch('SENTRY_DSN')
  config.release = 'raven-ruby@1.0.0'
  config.current_environment = 'staging'
  config.logger = Logger.new($stderr)
  config.silence_ready = true
end

def charge_card(amount)
  raise ArgumentError, "raven-ruby card declined for #{amount}"
end

begin
  charge_card(42)
rescue ArgumentError => e
  event = Raven.capture_exception(e, extra: { order: 'order-line ' * 150 })
end
abort 'raven-ruby did not capture the exception' unless event
puts JSON.generate(id: event.id)
