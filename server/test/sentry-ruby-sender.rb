# Child process of sentry-ruby-go.test.ts: Debian's ruby-sentry-ruby, unmodified, sends one
# exception with a cause (Ruby sets `cause` when raising inside `rescue`), the frames' local
# variables and source lines, a breadcrumb and a request. Prints the event id as one JSON line.
#
#   SENTRY_DSN   the DSN the SDK uses
require 'json'
require 'sentry-ruby'

Sentry.init do |config|
  config.dsn = ENV.fetch('SENTRY_DSN')
  config.release = 'shop-rb@1.0.0'
  config.environment = 'sdk-test'
  config.background_worker_threads = 0 # send before capture_exception returns
  config.capture_exception_frame_locals = true
  config.send_default_pii = false
end

Sentry.add_breadcrumb(
  Sentry::Breadcrumb.new(category: 'auth', message: 'signed in', level: 'info',
                         data: { 'user' => 'ada', 'password' => 'hunter2' })
)

def parse_amount(raw)
  cents = raw.length * 100
  Integer(raw) * cents
end

def charge_card(raw)
  api_token = 'tok-123'
  parse_amount(raw)
rescue ArgumentError
  raise "payment failed for #{raw}"
end

event = nil
begin
  charge_card('12x')
rescue StandardError => e
  event = Sentry.capture_exception(e)
end

STDOUT.puts JSON.generate(exception: event&.event_id, version: Sentry::VERSION)
