# A stand-in for the part of Homebrew's Formula DSL a formula evaluates when it is loaded,
# written from Homebrew's Formula Cookbook (https://docs.brew.sh/Formula-Cookbook): the class
# methods record what the formula declares, `on_macos`/`on_linux` and `on_arm`/`on_intel` run
# their block with that OS/CPU noted, so every url/sha256 pair is attributed to one platform.
# Usage: ruby homebrew_dsl_stub.rb FORMULA.rb CLASS  -> JSON on stdout.
require "json"

class Formula
  class << self
    attr_reader :fields, :artifacts, :test_block, :context

    def inherited(subclass)
      super
      subclass.instance_variable_set(:@fields, {})
      subclass.instance_variable_set(:@artifacts, [])
      subclass.instance_variable_set(:@context, {})
    end

    %i[desc homepage version license].each do |name|
      define_method(name) { |value| @fields[name.to_s] = value }
    end

    def url(value, **_options)
      @artifacts << { "os" => @context[:os], "cpu" => @context[:cpu], "url" => value }
    end

    def sha256(value)
      raise "sha256 before url" if @artifacts.empty? || @artifacts.last.key?("sha256")

      @artifacts.last["sha256"] = value
    end

    def on_macos(&block) = within(:os, "macos", &block)
    def on_linux(&block) = within(:os, "linux", &block)
    def on_arm(&block) = within(:cpu, "arm", &block)
    def on_intel(&block) = within(:cpu, "intel", &block)

    def test(&block)
      @test_block = block
    end

    private

    def within(key, value)
      raise "#{key} blocks cannot nest in themselves" if @context[key]

      @context[key] = value
      yield
    ensure
      @context.delete(key)
    end
  end
end

formula_path, class_name = ARGV
load formula_path
formula = Object.const_get(class_name)
raise "#{class_name} does not define install" unless formula.instance_methods(false).include?(:install)
raise "#{class_name} has no test do block" if formula.test_block.nil?

puts JSON.generate(
  "fields" => formula.fields,
  "artifacts" => formula.artifacts,
  "test_lines" => File.read(formula_path)[/test do\n(.*?)\n  end/m, 1].to_s.lines.map(&:strip)
)
