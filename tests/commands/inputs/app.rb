# A Ruby app
require 'json'

class Greeter
  # greet someone
  def greet(name)
    "hello #{name}" # interpolation, not a comment
  end
end
