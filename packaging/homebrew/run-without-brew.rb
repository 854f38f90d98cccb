# Runs a Homebrew formula's install and test blocks where Homebrew itself
# cannot run (CI's machine cannot reach Homebrew's hosts). It is a stand-in,
# not Homebrew: it provides only the few Formula methods git-convo.rb uses,
# with Homebrew's meaning, so a broken build step, a missing file or a failing
# test block shows up before a release. The real check is `brew test` on a Mac
# (docs/release.md).
#
#   ruby packaging/homebrew/run-without-brew.rb FORMULA.rb SOURCE.tar.gz
require "fileutils"
require "open3"
require "pathname"
require "tmpdir"

class Formula
  class << self
    attr_reader :stable_version

    def version(v = nil) = (@stable_version = v)
    def desc(*) = nil
    def homepage(*) = nil
    def url(*) = nil
    def sha256(*) = nil
    def license(*) = nil
    def head(*, **) = nil
    def depends_on(*) = nil
    def test(&block) = (@test_block = block)
    attr_reader :test_block
  end

  attr_reader :prefix, :testpath

  def initialize(prefix, testpath)
    @prefix = Pathname(prefix)
    @testpath = Pathname(testpath)
  end

  def version = self.class.stable_version
  def bin = prefix/"bin"
  def man1 = prefix/"share/man/man1"
  def bash_completion = prefix/"etc/bash_completion.d"
  def zsh_completion = prefix/"share/zsh/site-functions"

  def std_go_args(output:, ldflags: nil, tags: nil)
    ["-trimpath", "-o=#{output}", *(ldflags ? ["-ldflags=#{ldflags}"] : []), *(tags ? ["-tags=#{tags}"] : [])]
  end

  def system(*args)
    puts "==> #{args.join(" ")}"
    Kernel.system(*args.map(&:to_s)) || raise("failed: #{args.join(" ")}")
  end

  # Homebrew runs `cmd completion bash` and `cmd completion zsh` and installs
  # the output as git-convo and _git-convo.
  def generate_completions_from_executable(cmd, *args, shells:)
    {bash: bash_completion/"git-convo", zsh: zsh_completion/"_git-convo"}.slice(*shells).each do |shell, path|
      path.dirname.mkpath
      path.write(Utils.safe_popen_read(cmd, *args, shell.to_s))
    end
  end

  def shell_output(cmd, status = 0)
    out, st = Open3.capture2(cmd)
    raise "#{cmd}: exit #{st.exitstatus}, want #{status}" unless st.exitstatus == status

    out
  end

  def cd(dir, &) = Dir.chdir(dir, &)
  def assert_match(want, got) = (got.include?(want) || raise("#{got.inspect} does not contain #{want.inspect}"))
  def assert_path_exists(p) = (File.exist?(p) || raise("#{p} does not exist"))
end

module Utils
  def self.safe_popen_read(*args)
    out, st = Open3.capture2(*args.map(&:to_s))
    raise "#{args.join(" ")}: exit #{st.exitstatus}" unless st.success?

    out
  end
end

# Homebrew's Pathname#write creates the parent directory (and never overwrites).
class Pathname
  alias plain_write write
  def write(content, *args, **kw)
    raise "Will not overwrite #{self}" if exist?

    dirname.mkpath
    plain_write(content, *args, **kw)
  end
end

# Homebrew's ENV helper used by the formula.
def ENV.prepend_path(key, dir) = (self[key] = "#{dir}#{File::PATH_SEPARATOR}#{self[key]}")

formula_file, tarball = ARGV
abort "usage: #{$PROGRAM_NAME} FORMULA.rb SOURCE.tar.gz" unless formula_file && tarball
load File.expand_path(formula_file)
klass = Object.const_get(:GitConvo)

Dir.mktmpdir("brew-standin-") do |tmp|
  src = File.join(tmp, "src")
  FileUtils.mkdir_p(src)
  Kernel.system("tar", "-xzf", tarball, "-C", src, "--strip-components=1") || abort("cannot unpack #{tarball}")
  f = klass.new(File.join(tmp, "prefix"), File.join(tmp, "test"))
  FileUtils.mkdir_p(f.testpath)
  Dir.chdir(src) { f.install }
  %w[bin/git-convo bin/git-convo-mcp share/man/man1/git-convo.1
     etc/bash_completion.d/git-convo share/zsh/site-functions/_git-convo].each do |p|
    abort "install did not produce #{p}" unless (f.prefix/p).size?
  end
  # Homebrew's test sandbox: a fresh HOME, the test directory as cwd.
  env = ENV.to_h
  ENV["HOME"] = f.testpath.to_s
  ENV["GIT_CONFIG_NOSYSTEM"] = "1"
  Dir.chdir(f.testpath) { f.instance_eval(&klass.test_block) }
  ENV.replace(env)
  puts "install and test blocks of #{File.basename(formula_file)} passed (without Homebrew)"
end
