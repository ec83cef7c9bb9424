# A stand-in for the part of Homebrew that runs a formula's `install`, written from Homebrew's
# Formula Cookbook and its Pathname#install (https://docs.brew.sh/Formula-Cookbook): run in the
# unpacked archive's top folder, as brew does, it gives `bin`, `bash_completion`, `zsh_completion`,
# `fish_completion` and `man1`..`man8` as the folders of PREFIX that Homebrew uses, and `install`
# moves each named file there (`"a" => "b"` renames it), failing on a file the archive lacks.
# The url/sha256 blocks are read and ignored.
# Usage: ruby homebrew_install_stub.rb FORMULA.rb CLASS PREFIX  -> one installed path per line.
require "fileutils"
require "pathname"

class Pathname
  def install(*sources)
    sources.each do |source|
      pairs = source.is_a?(Hash) ? source.to_a : Array(source).map { |file| [file, File.basename(file)] }
      pairs.each do |from, to|
        raise "#{from}: no such file in the archive" unless File.exist?(from)

        mkpath
        FileUtils.mv(from, join(to))
        puts join(to)
      end
    end
  end
end

class Formula
  class << self
    %i[desc homepage version license url sha256].each { |name| define_method(name) { |*_args, **_options| } }
    %i[on_macos on_linux on_arm on_intel test].each { |name| define_method(name) { |&_block| } }
  end

  def initialize(prefix)
    @prefix = Pathname.new(prefix)
  end

  def bin = @prefix / "bin"
  def bash_completion = @prefix / "etc/bash_completion.d"
  def zsh_completion = @prefix / "share/zsh/site-functions"
  def fish_completion = @prefix / "share/fish/vendor_completions.d"
  (1..8).each { |section| define_method("man#{section}") { @prefix / "share/man/man#{section}" } }
end

formula_path, class_name, prefix = ARGV
load formula_path
Object.const_get(class_name).new(prefix).install
